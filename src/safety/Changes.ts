/**
 * Which tokens need a new verdict between two index states: a pool that is new or whose state
 * differs (the state is immutable, so a touched pool is a new record and an untouched one the same
 * record) marks both its tokens. Without an earlier state (start-up, or after a rollback) every token
 * in a pool counts. Newest tokens last, so a newest-first queue measures fresh listings first.
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { IndexState } from "../indexer/State.js"

export const changedTokens = (previous: IndexState | undefined, next: IndexState): ReadonlyArray<Hex> => {
  const touched = new Set<Hex>()
  for (const [id, pool] of next.pools) {
    if (previous !== undefined && Option.getOrUndefined(HashMap.get(previous.pools, id)) === pool) continue
    touched.add(pool.token0)
    touched.add(pool.token1)
  }
  const seq = (token: Hex) => Option.getOrUndefined(HashMap.get(next.tokens, token))?.seq ?? -1
  return [...touched].sort((a, b) => seq(a) - seq(b))
}

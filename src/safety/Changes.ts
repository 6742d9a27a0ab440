/**
 * Which tokens need a new verdict between two index states: a pool that is new or whose state
 * differs (the state is immutable, so a touched pool is a new record and an untouched one the same
 * record) marks both its tokens. Without an earlier state (start-up, or after a rollback) every token
 * in a pool counts. Newest tokens last, so a newest-first queue measures fresh listings first.
 *
 * The pools come from the steps applied in between (the state's touch log): a look costs what changed
 * since the last one, not a walk of every pool. Only when the log cannot say (another line, or steps
 * already dropped) are the two states' pools compared one by one.
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { IndexState } from "../indexer/State.js"
import { stepsBetween } from "../indexer/Touched.js"

/** Tokens of pools new or changed between the states, found by comparing every pool: the fallback. */
const comparedPools = (previous: IndexState | undefined, next: IndexState): Set<Hex> => {
  const touched = new Set<Hex>()
  for (const [id, pool] of next.pools) {
    if (previous !== undefined && Option.getOrUndefined(HashMap.get(previous.pools, id)) === pool) continue
    touched.add(pool.token0)
    touched.add(pool.token1)
  }
  return touched
}

/** Tokens of pools the steps between the states touched, or undefined when the log cannot say. */
const loggedPools = (previous: IndexState, next: IndexState): Set<Hex> | undefined => {
  const steps = stepsBetween(previous.touched, next.touched)
  if (steps === undefined) return undefined
  const touched = new Set<Hex>()
  for (const step of steps) {
    for (const id of step.pools) {
      const pool = Option.getOrUndefined(HashMap.get(next.pools, id))
      // A pool touched and then put back as it was (the same record) has not changed.
      if (pool === undefined || Option.getOrUndefined(HashMap.get(previous.pools, id)) === pool) continue
      touched.add(pool.token0)
      touched.add(pool.token1)
    }
  }
  return touched
}

const newestLast = (touched: Set<Hex>, next: IndexState): ReadonlyArray<Hex> => {
  const seq = (token: Hex) => Option.getOrUndefined(HashMap.get(next.tokens, token))?.seq ?? -1
  return [...touched].sort((a, b) => seq(a) - seq(b))
}

export const changedTokens = (previous: IndexState | undefined, next: IndexState): ReadonlyArray<Hex> =>
  newestLast(
    (previous === undefined ? undefined : loggedPools(previous, next)) ?? comparedPools(previous, next),
    next
  )

/** The same answer by comparing every pool, whatever the log holds: what the log is checked against. */
export const changedTokensCompared = (previous: IndexState | undefined, next: IndexState): ReadonlyArray<Hex> =>
  newestLast(comparedPools(previous, next), next)

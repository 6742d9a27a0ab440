/**
 * Which of a token's known verdicts still stand at a block: a verdict stands where it was measured,
 * and at a later block only while no block in between wrote the state of what it depends on: the
 * token's contract (its code, balances, owner switches, tax settings, lock flags, proxy slots: any
 * write at all) and the hooks of the pool it was measured through. Anything else a token might consult
 * (an outside registry it reads, the block's number or time) is not followed here; `quote` measures
 * its own verdict at its own block, so no trade is priced on a verdict from another block.
 *
 * A token that trades writes its balances: after a trade its verdict no longer stands, and search
 * shows none until the background scan has measured it again (it follows the same writes).
 */
import { Effect, HashMap, Option } from "effect"
import { type Hex, hexOption } from "../../schema/Chain.js"
import type { SafetyVerdict } from "../../schema/Token.js"
import type { IndexState } from "../indexer/State.js"
import { StateChanges } from "./StateChanges.js"
import type { TokenVerdicts } from "./VerdictBook.js"

/** The contracts a verdict of `token` depends on: the token and its route's hooks. */
export const dependenciesOf = (token: Hex, verdict: SafetyVerdict, state: IndexState): ReadonlyArray<Hex> => {
  const pool = Option.getOrUndefined(
    Option.flatMap(hexOption(verdict.route.poolId), (id) => HashMap.get(state.pools, id))
  )
  const hooks = pool?.kind === "v2" ? null : pool?.hooks ?? null
  return hooks === null ? [token] : [token, hooks]
}

/** The verdicts of `known` that stand at `state`'s block, in the book's order (best first). */
export const standingAt = (token: Hex, known: TokenVerdicts | undefined, state: IndexState) =>
  Effect.gen(function*() {
    if (known === undefined) return undefined
    const changes = yield* StateChanges
    const block = state.block
    const standing: Array<SafetyVerdict> = []
    for (const verdict of known.routes) {
      const measured = verdict.scope.block
      if (measured > block) continue
      if (measured === block) {
        standing.push(verdict)
        continue
      }
      if (yield* changes.untouchedBetween(dependenciesOf(token, verdict, state), measured, block)) {
        standing.push(verdict)
      }
    }
    return standing.length === 0 ? undefined : { best: known.best, routes: standing } satisfies TokenVerdicts
  })

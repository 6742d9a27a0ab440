/**
 * The per-transaction cap, by bisection between a buy size that went through and one that did not:
 * it stops when the bracket is within 0.5 % of the size that went through, so the reported cap (the
 * largest size seen to go through) is within 1 % of the true one, after at most ~20 simulations.
 */
import { Effect } from "effect"

/** Bracket width, in parts per 10,000 of the lower bound, at which the search stops. */
const PRECISION_BPS = 50n
const MAX_STEPS = 24

export const findCap = <E, R>(
  goesThrough: (amount: bigint) => Effect.Effect<boolean, E, R>,
  passed: bigint,
  failed: bigint
): Effect.Effect<bigint, E, R> =>
  Effect.gen(function*() {
    let low = passed
    let high = failed
    for (let step = 0; step < MAX_STEPS && (high - low) * 10_000n > low * PRECISION_BPS; step++) {
      const middle = (low + high) / 2n
      if (yield* goesThrough(middle)) low = middle
      else high = middle
    }
    return low
  })

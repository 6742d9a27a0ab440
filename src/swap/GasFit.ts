/**
 * Gas limits found the way wallets find them: the least limit under which the transactions still
 * succeed, then headroom. What a transaction used under a large limit is not enough to send it with:
 * refunds lower the figure below what must be available, the 63/64 rule leaves an inner call less
 * than the whole, and tokens read `gasleft()` (a dividend token calls its distributor only above some
 * gas, or requires it) and take another path, or revert, when the limit is tight.
 *
 * The limits are searched together, as multiples of what each call used: one request per multiple,
 * all sent at once, and the least multiple from which every larger one succeeds is the answer.
 */
import { Effect } from "effect"
import type { SimResult } from "../../layers/Simulator.js"

/** The multiples of the used gas tried, in percent, rising. */
const MULTIPLES_PERCENT = [100n, 102n, 105n, 110n, 120n, 150n, 200n, 400n, 800n]

const atMultiple = (used: ReadonlyArray<bigint>, caps: ReadonlyArray<bigint>, percent: bigint) =>
  used.map((gas, i) => {
    const limit = (gas * percent + 99n) / 100n
    return limit < caps[i]! ? limit : caps[i]!
  })

const allSucceeded = (results: ReadonlyArray<SimResult>, count: number) =>
  results.length === count && results.every((result) => result.ok)

/**
 * The least limits, one per call, under which `run` succeeds for every larger multiple too; `caps` (the
 * limits the calls already succeeded under) when no smaller multiple does.
 */
export const leastLimits = Effect.fn("Swap.leastGasLimits")(function*<E, R>(
  run: (limits: ReadonlyArray<bigint>) => Effect.Effect<ReadonlyArray<SimResult>, E, R>,
  used: ReadonlyArray<bigint>,
  caps: ReadonlyArray<bigint>
) {
  const probes = MULTIPLES_PERCENT.map((percent) => atMultiple(used, caps, percent))
  const succeeded = yield* Effect.all(
    probes.map((limits) => Effect.map(run(limits), (results) => allSucceeded(results, limits.length))),
    { concurrency: "unbounded" }
  )
  let least = caps
  for (let i = probes.length - 1; i >= 0 && succeeded[i] === true; i--) least = probes[i]!
  return least
})

/**
 * A path's exact output, from the output backwards (./Path.ts runs it): as the router's exact-out chain
 * executes it, or, through the launchpad curve, as the least input that delivers.
 */
import { leastHopInput, quoteExactOutput, type RoutablePool } from "../math/Hop.js"
import { stepHop } from "./HopStep.js"
import type { HopFill, Path, PathRun, PoolLookup, SimulatedHops, TransferTaxes } from "./PathTypes.js"

/** The least input that delivers `amountOut`, hop by hop from the end. */
export const leastInput = (
  path: Path,
  amountOut: bigint,
  pools: PoolLookup,
  taxes: TransferTaxes,
  simulated: SimulatedHops
): PathRun | { readonly input: bigint; readonly fills: ReadonlyArray<HopFill> | undefined } => {
  let amount = amountOut
  // Each hop's (input, output) on the way back; kept only when a hop was simulated (see runPath).
  const backward: Array<HopFill> = []
  for (let i = path.hops.length - 1; i >= 0; i--) {
    const step = stepHop(path.hops[i]!, "exactOut", amount, leastHopInput, pools, taxes, simulated)
    if (step._tag !== "Stepped") return step
    backward.unshift(step.fill)
    amount = step.next
  }
  return { input: amount, fills: backward.some((fill) => fill.simulated) ? backward : undefined }
}

/**
 * An exact output along a path with no curve hop, as the router's exact-out chain executes it: from the
 * output backwards, each hop delivers exactly what the hop after it needs and costs what its pool
 * charges for that, so the path buys exactly `amountOut` (a taxed hop: at least it).
 */
export const chainBackward = (
  path: Path,
  amountOut: bigint,
  pools: PoolLookup,
  taxes: TransferTaxes,
  simulated: SimulatedHops
): PathRun => {
  let amount = amountOut
  const fills: Array<HopFill> = []
  const poolsAfter: Array<RoutablePool> = []
  for (let i = path.hops.length - 1; i >= 0; i--) {
    const step = stepHop(path.hops[i]!, "exactOut", amount, quoteExactOutput, pools, taxes, simulated)
    if (step._tag !== "Stepped") return step
    fills.unshift(step.fill)
    poolsAfter.push(step.poolAfter)
    amount = step.next
  }
  return { _tag: "Filled", amountIn: amount, amountOut: fills[fills.length - 1]!.amountOut, fills, poolsAfter }
}

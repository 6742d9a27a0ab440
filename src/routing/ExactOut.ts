/**
 * A path's exact output, from the output backwards (./Path.ts runs it): as the router's exact-out chain
 * executes it, or, through the launchpad curve, as the least input that delivers.
 */
import { leastHopInput, quoteExactOutput } from "../math/Hop.js"
import { walkPath } from "./HopStep.js"
import type { HopFill, HopPricing, Path, PathRun } from "./PathTypes.js"

/** The least input that delivers `amountOut`, hop by hop from the end. */
export const leastInput = (
  path: Path,
  amountOut: bigint,
  pricing: HopPricing
): PathRun | { readonly input: bigint; readonly fills: ReadonlyArray<HopFill> | undefined } => {
  const { pools, simulated, taxes } = pricing
  const walk = walkPath(path, amountOut, { pools, taxes, simulated, side: "exactOut", price: leastHopInput })
  if (walk._tag !== "Walked") return walk
  // Each hop's (input, output) on the way back; kept only when a hop was simulated (see runPath).
  return { input: walk.end, fills: walk.fills.some((fill) => fill.simulated) ? walk.fills : undefined }
}

/**
 * An exact output along a path with no curve hop, as the router's exact-out chain executes it: from the
 * output backwards, each hop delivers exactly what the hop after it needs and costs what its pool
 * charges for that, so the path buys exactly `amountOut` (a taxed hop: at least it).
 */
export const chainBackward = (path: Path, amountOut: bigint, { pools, simulated, taxes }: HopPricing): PathRun => {
  // The walk as an object literal, not a spread of `pricing`: a spread object costs V8 several times the
  // hop's own math on this path (route search prices hundreds of exact outputs per quote).
  const walk = walkPath(path, amountOut, { pools, taxes, simulated, side: "exactOut", price: quoteExactOutput })
  if (walk._tag !== "Walked") return walk
  const { fills, poolsAfter } = walk
  return { _tag: "Filled", amountIn: walk.end, amountOut: fills[fills.length - 1]!.amountOut, fills, poolsAfter }
}

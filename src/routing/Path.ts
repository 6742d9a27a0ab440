/**
 * A path: a chain of pool hops from the sell token to the buy token, and its exact price against a
 * given pool state. exactIn runs forward; exactOut runs backwards from the output, each hop an exact
 * output as the router's exact-out chain executes it, so the path buys exactly the amount asked. A path
 * through the launchpad curve (which has no exact-output trade) finds each hop's least input backwards,
 * then runs that input forward. Either way the amounts and pool states are what execution yields.
 *
 * Transfer taxes are charged where tokens move: into the first pool (the sell token's sell tax), out of
 * every pool (the hop output's buy tax) and, because the router holds tokens between hops, into every
 * later pool again (that token's sell tax).
 */
import { quoteHop } from "../math/Hop.js"
import { chainBackward, leastInput } from "./ExactOut.js"
import { walkPath } from "./HopStep.js"
import type { HopPricing, Path, PathHop, PathRun, PoolLookup, Side, SimulatedHops, TransferTaxes } from "./PathTypes.js"

export type {
  HopFill,
  HopSimulation,
  Path,
  PathHop,
  PathRun,
  PoolLookup,
  Side,
  SimulatedHops,
  TransferTaxes
} from "./PathTypes.js"

export const makePath = (hops: ReadonlyArray<PathHop>): Path => ({
  key: hops.map((hop) => `${hop.venue}:${hop.poolId}`).join(">"),
  tokenIn: hops[0]!.tokenIn,
  tokenOut: hops[hops.length - 1]!.tokenOut,
  hops
})

export const noTaxes: TransferTaxes = { buyBps: () => 0n, sellBps: () => 0n }

export const noSimulatedHops: SimulatedHops = { get: () => undefined }

const forward = (path: Path, amountIn: bigint, { pools, simulated, taxes }: HopPricing): PathRun => {
  const walk = walkPath(path, amountIn, { pools, taxes, simulated, side: "exactIn", price: quoteHop })
  if (walk._tag !== "Walked") return walk
  return { _tag: "Filled", amountIn, amountOut: walk.end, fills: walk.fills, poolsAfter: walk.poolsAfter }
}

/** `simulated` prices the hops indexed state cannot; without it such a path answers `NeedsSimulation`. */
export const runPath = (
  path: Path,
  side: Side,
  amount: bigint,
  pools: PoolLookup,
  taxes: TransferTaxes,
  simulated: SimulatedHops = noSimulatedHops
): PathRun => {
  if (amount <= 0n) return { _tag: "Unfillable", hop: null, reason: "zero_amount" }
  const pricing: HopPricing = { pools, taxes, simulated }
  if (side === "exactIn") return forward(path, amount, pricing)
  if (path.hops.every((hop) => hop.kind !== "curve")) return chainBackward(path, amount, pricing)
  // The launchpad has no exact-output trade: a path through it buys with the least input that delivers.
  const least = leastInput(path, amount, pricing)
  if ("_tag" in least) return least
  if (least.fills === undefined) return forward(path, least.input, pricing)
  // A hook that takes its cut on the unspecified side makes exact-in and exact-out swaps of one pool
  // disagree, so the exact-output amounts found on the way back are what the router asks for.
  return { _tag: "Filled", amountIn: least.input, amountOut: amount, fills: least.fills, poolsAfter: [] }
}

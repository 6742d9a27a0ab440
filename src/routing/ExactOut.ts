/**
 * A path's exact output, from the output backwards (./Path.ts runs it): as the router's exact-out chain
 * executes it, or, through the launchpad curve, as the least input that delivers.
 */
import { leastHopInput, quoteExactOutput, type RoutablePool, type SimulationReason } from "../math/Hop.js"
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
  let anySimulated = false
  for (let i = path.hops.length - 1; i >= 0; i--) {
    const hop = path.hops[i]!
    const pool = pools(hop.poolId)
    if (pool === undefined) return { _tag: "Unfillable", hop, reason: "unknown_pool" }
    const input = leastHopInput({
      pool,
      tokenIn: hop.tokenIn,
      side: "exactOut",
      amount,
      inputTaxBps: taxes.sellBps(hop.tokenIn),
      outputTaxBps: taxes.buyBps(hop.tokenOut)
    })
    if (typeof input === "bigint") {
      backward.unshift({ hop, amountIn: input, amountOut: amount })
      amount = input
    } else if (input._tag === "NeedsSimulation") {
      const needed = simulable(input.reason) ? simulated.get(hop.poolId, hop.tokenIn, "exactOut", amount) : undefined
      if (needed === undefined) {
        return { _tag: "NeedsSimulation", hop, reason: input.reason, pending: { hop, side: "exactOut", amount } }
      }
      if (needed === 0n) return { _tag: "Unfillable", hop, reason: "insufficient_liquidity" }
      backward.unshift({ hop, amountIn: needed, amountOut: amount, simulated: true })
      anySimulated = true
      amount = needed
    } else if (input._tag === "Unfillable") return { _tag: "Unfillable", hop, reason: input.reason }
  }
  return { input: amount, fills: anySimulated ? backward : undefined }
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
    const hop = path.hops[i]!
    const pool = pools(hop.poolId)
    if (pool === undefined) return { _tag: "Unfillable", hop, reason: "unknown_pool" }
    const quote = quoteExactOutput({
      pool,
      tokenIn: hop.tokenIn,
      side: "exactOut",
      amount,
      inputTaxBps: taxes.sellBps(hop.tokenIn),
      outputTaxBps: taxes.buyBps(hop.tokenOut)
    })
    if (quote._tag === "NeedsSimulation") {
      const needed = simulable(quote.reason) ? simulated.get(hop.poolId, hop.tokenIn, "exactOut", amount) : undefined
      if (needed === undefined) {
        return { _tag: "NeedsSimulation", hop, reason: quote.reason, pending: { hop, side: "exactOut", amount } }
      }
      if (needed === 0n) return { _tag: "Unfillable", hop, reason: "insufficient_liquidity" }
      // The pool's state after a hooked swap is not known: a plan never sends two flows through it.
      fills.unshift({ hop, amountIn: needed, amountOut: amount, simulated: true })
      poolsAfter.push(pool)
      amount = needed
      continue
    }
    if (quote._tag === "Unfillable") return { _tag: "Unfillable", hop, reason: quote.reason }
    fills.unshift({ hop, amountIn: quote.amountIn, amountOut: quote.amountOut })
    poolsAfter.push(quote.poolAfter)
    amount = quote.amountIn
  }
  return { _tag: "Filled", amountIn: amount, amountOut: fills[fills.length - 1]!.amountOut, fills, poolsAfter }
}

/** A taxed input into the PoolManager depends on the router, not the pool: simulating the pool alone cannot tell. */
export const simulable = (reason: SimulationReason) => reason !== "fee_on_transfer_input"

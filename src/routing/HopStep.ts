/**
 * One hop of a path run, either direction (./Path.ts forward, ./ExactOut.ts backwards): the hop's pool
 * priced from indexed state or, where indexed state cannot price it, by the simulated amount; and the
 * walk of a path's hops in that direction.
 */
import type { HopQuote, HopRequest, RoutablePool, SimulationReason } from "../math/Hop.js"
import type { HopFill, HopPricing, Path, PathHop, PathRun, Side } from "./PathTypes.js"

/** Prices one hop: a full quote, or (for the least input on the way back) just the amount to send. */
export type PriceHop = (request: HopRequest) => bigint | HopQuote

/** How a path is walked: in which direction, and what prices each hop. */
export interface Walk extends HopPricing {
  readonly side: Side
  readonly price: PriceHop
}

/** A priced hop: its fill, the pool as the hop leaves it, and the amount the next hop in the walk gets. */
export interface SteppedHop {
  readonly _tag: "Stepped"
  readonly fill: HopFill
  readonly poolAfter: RoutablePool
  readonly next: bigint
}

/** A path run that stops at this hop. */
type Stop = Extract<PathRun, { _tag: "NeedsSimulation" | "Unfillable" }>

/** A taxed input into the PoolManager depends on the router, not the pool: simulating the pool alone cannot tell. */
const simulable = (reason: SimulationReason) => reason !== "fee_on_transfer_input"

/** `amount` is the hop's input (exactIn) or output (exactOut). */
export const stepHop = (hop: PathHop, amount: bigint, walk: Walk): SteppedHop | Stop => {
  const { side, taxes } = walk
  const pool = walk.pools(hop.poolId)
  if (pool === undefined) return { _tag: "Unfillable", hop, reason: "unknown_pool" }
  const quote = walk.price({
    pool,
    tokenIn: hop.tokenIn,
    side,
    amount,
    inputTaxBps: taxes.sellBps(hop.tokenIn),
    outputTaxBps: taxes.buyBps(hop.tokenOut)
  })
  // Only the input to send: the pool is not run, so it leaves as it was.
  if (typeof quote === "bigint") return stepped(hop, side, amount, quote, pool)
  if (quote._tag === "Quoted") {
    const next = side === "exactIn" ? quote.amountOut : quote.amountIn
    const fill = { hop, amountIn: quote.amountIn, amountOut: quote.amountOut }
    return { _tag: "Stepped", fill, poolAfter: quote.poolAfter, next }
  }
  if (quote._tag === "Unfillable") return { _tag: "Unfillable", hop, reason: quote.reason }
  const other = simulable(quote.reason) ? walk.simulated.get(hop.poolId, hop.tokenIn, side, amount) : undefined
  if (other === undefined) return { _tag: "NeedsSimulation", hop, reason: quote.reason, pending: { hop, side, amount } }
  if (other === 0n) return { _tag: "Unfillable", hop, reason: "insufficient_liquidity" }
  // The pool's state after a hooked swap is not known: a plan never sends two flows through it.
  return stepped(hop, side, amount, other, pool, true)
}

/** `other` is the output (exactIn) or input (exactOut) found for `amount`, and the next hop's amount. */
const stepped = (
  hop: PathHop,
  side: Side,
  amount: bigint,
  other: bigint,
  poolAfter: RoutablePool,
  simulated?: true
): SteppedHop => {
  const [amountIn, amountOut] = side === "exactIn" ? [amount, other] : [other, amount]
  const fill: HopFill = simulated ? { hop, amountIn, amountOut, simulated } : { hop, amountIn, amountOut }
  return { _tag: "Stepped", fill, poolAfter, next: other }
}

/** A path walked to its far end: fills in path order, pools as each step left them in walk order. */
export interface WalkedPath {
  readonly _tag: "Walked"
  readonly fills: ReadonlyArray<HopFill>
  readonly poolsAfter: ReadonlyArray<RoutablePool>
  /** The amount at the far end: the output (exactIn) or the input (exactOut). */
  readonly end: bigint
}

/** Steps every hop of `path`, forward from its input (exactIn) or back from its output (exactOut). */
export const walkPath = (path: Path, amount: bigint, walk: Walk): WalkedPath | Stop => {
  const fills: Array<HopFill> = []
  const poolsAfter: Array<RoutablePool> = []
  const last = path.hops.length - 1
  let next = amount
  for (let i = 0; i <= last; i++) {
    const step = stepHop(path.hops[walk.side === "exactIn" ? i : last - i]!, next, walk)
    if (step._tag !== "Stepped") return step
    fills.push(step.fill)
    poolsAfter.push(step.poolAfter)
    next = step.next
  }
  if (walk.side === "exactOut") fills.reverse()
  return { _tag: "Walked", fills, poolsAfter, end: next }
}

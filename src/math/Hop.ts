/**
 * One swap through one pool, the same way for every venue kind: exact input or exact output, with the
 * transfer taxes of fee-on-transfer tokens applied where tokens move, and the pool state after the swap
 * (so a router that sends two flows through one pool prices the second against what the first left).
 *
 * Answers are exact to the base unit or say why not: `NeedsSimulation` where indexed state cannot tell
 * (a v4 fee set per swap by a hook, a hook that returns deltas, a taxed input into the PoolManager),
 * `Unfillable` where the swap would revert or fill only partly. exactOut answers are the smallest input
 * whose exact-input swap delivers at least the amount, and carry what that input actually delivers.
 */
import type { Hex } from "../../schema/Chain.js"
import { hookReturnsSwapDelta } from "./HookFlags.js"
import type { HopQuote, RoutablePool, SimulationReason, UnfillableReason } from "./HopTypes.js"
import * as Curve from "./LaunchpadCurve.js"
import { poolExactIn, poolExactOut, poolInputFor } from "./PoolSwap.js"
import { afterTax, grossUp } from "./TransferTax.js"

export type { CurvePool, HopKind, HopQuote, RoutablePool, SimulationReason, UnfillableReason } from "./HopTypes.js"

export interface HopRequest {
  readonly pool: RoutablePool
  readonly tokenIn: Hex
  readonly side: "exactIn" | "exactOut"
  /** Input sent (exactIn) or output to receive (exactOut), in base units. */
  readonly amount: bigint
  /** Tax on the transfer into the pool (the input token's sell tax), in bps. */
  readonly inputTaxBps?: bigint
  /** Tax on the transfer out of the pool (the output token's buy tax), in bps. */
  readonly outputTaxBps?: bigint
}

const unfillable = (reason: UnfillableReason): HopQuote => ({ _tag: "Unfillable", reason })
const needsSimulation = (reason: SimulationReason): HopQuote => ({ _tag: "NeedsSimulation", reason })

/** Why this pool cannot be priced from indexed state for this request, if it cannot. */
export const simulationReason = (pool: RoutablePool, inputTaxBps: bigint): SimulationReason | undefined => {
  if (pool.kind !== "v4") return undefined
  if (pool.dynamicFee) return "dynamic_fee"
  if (hookReturnsSwapDelta(pool.hooks)) return "hook_delta"
  // The PoolManager settles what it received; whether a taxed input can be settled depends on the router.
  if (inputTaxBps > 0n) return "fee_on_transfer_input"
  return undefined
}

/** Why the hop cannot be priced at all, before any amount is considered. */
const refusal = (request: HopRequest): HopQuote | undefined => {
  const { pool } = request
  const inputTaxBps = request.inputTaxBps ?? 0n
  if (request.amount <= 0n) return unfillable("zero_amount")
  const reason = simulationReason(pool, inputTaxBps)
  if (reason !== undefined) return needsSimulation(reason)
  if (pool.kind === "v3" && inputTaxBps > 0n) return unfillable("fee_on_transfer_input")
  if (pool.kind === "curve" && !Curve.curveTradable(pool.curve)) return unfillable("curve_complete")
  return undefined
}

/**
 * The least amount to send for the recipient to receive at least `amount` (an exactOut request),
 * without running the swap: a multi-hop path needs only this on its way back from the output.
 */
export const leastHopInput = (request: HopRequest): bigint | HopQuote => {
  const refused = refusal(request)
  if (refused !== undefined) return refused
  const poolOut = grossUp(request.amount, request.outputTaxBps ?? 0n)
  const poolIn = poolOut === undefined ? undefined : poolInputFor(request.pool, request.tokenIn, poolOut)
  const toSend = poolIn === undefined ? undefined : grossUp(poolIn, request.inputTaxBps ?? 0n)
  return toSend ?? unfillable("insufficient_liquidity")
}

/**
 * An exact output as the router's exact-out step executes it: the pool delivers exactly `amount` and is
 * paid what it charges. A taxed transfer or the launchpad curve (no exact-output trade) cannot deliver
 * an exact amount: there, the least input that delivers at least `amount` (`quoteHop`).
 */
export const quoteExactOutput = (request: HopRequest): HopQuote => {
  const refused = refusal(request)
  if (refused !== undefined) return refused
  const taxed = (request.inputTaxBps ?? 0n) > 0n || (request.outputTaxBps ?? 0n) > 0n
  if (taxed || request.pool.kind === "curve") return quoteHop({ ...request, side: "exactOut" })
  return poolExactOut(request.pool, request.tokenIn, request.amount)
}

export const quoteHop = (request: HopRequest): HopQuote => {
  const inputTaxBps = request.inputTaxBps ?? 0n
  const sent = request.side === "exactOut" ? leastHopInput(request) : refusal(request) ?? request.amount
  if (typeof sent !== "bigint") return sent
  const outputTaxBps = request.outputTaxBps ?? 0n
  const inPool = poolExactIn(request.pool, request.tokenIn, afterTax(sent, inputTaxBps))
  // Untaxed, the pool's own quote is the hop's: the common case skips a copy (route search runs it most).
  if (inPool._tag !== "Quoted" || (inputTaxBps === 0n && outputTaxBps === 0n)) return inPool
  return { ...inPool, amountIn: sent, amountOut: afterTax(inPool.amountOut, outputTaxBps) }
}

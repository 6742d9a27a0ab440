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
import type { ConcentratedPool, Pool } from "../indexer/State.js"
import { swap } from "./ConcentratedSwap.js"
import { getAmountIn, getAmountOut } from "./ConstantProduct.js"
import { hookReturnsSwapDelta } from "./HookFlags.js"
import * as Curve from "./LaunchpadCurve.js"
import { afterTax, grossUp } from "./TransferTax.js"
import { v4SwapFeePips } from "./V4Fees.js"

/** A launchpad token still on its bonding curve, traded against USDC through the launchpad. */
export interface CurvePool {
  readonly kind: "curve"
  /** The launched token's address: one curve per token. */
  readonly id: Hex
  /** The launchpad's venue id. */
  readonly venue: string
  readonly token0: Hex
  readonly token1: Hex
  readonly usdc: Hex
  readonly token: Hex
  readonly curve: Curve.CurveState
}

export type RoutablePool = Pool | CurvePool
export type HopKind = RoutablePool["kind"]

export type SimulationReason = "dynamic_fee" | "hook_delta" | "fee_on_transfer_input"
export type UnfillableReason = "insufficient_liquidity" | "curve_complete" | "fee_on_transfer_input" | "zero_amount"

export type HopQuote =
  | {
    readonly _tag: "Quoted"
    /** What the sender sends (before any transfer tax). */
    readonly amountIn: bigint
    /** What the recipient receives (after any transfer tax). */
    readonly amountOut: bigint
    readonly poolAfter: RoutablePool
  }
  | { readonly _tag: "NeedsSimulation"; readonly reason: SimulationReason }
  | { readonly _tag: "Unfillable"; readonly reason: UnfillableReason }

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

const concentratedFeePips = (pool: ConcentratedPool, zeroForOne: boolean): bigint =>
  pool.kind === "v4" ? v4SwapFeePips(pool.feePips, pool.protocolFee, zeroForOne) : BigInt(pool.feePips)

/** A v2 pair keeps its reserves in uint112: a swap that would take one past it reverts (`OVERFLOW`). */
const V2_RESERVE_MAX = 2n ** 112n - 1n
/** A v4 swap's deltas are int128: no larger amount can be swapped in one call. */
const V4_AMOUNT_MAX = 2n ** 127n - 1n

/** The pool's own exact-input swap of `received` (what reached it); undefined when it cannot take all of it. */
const poolExactIn = (pool: RoutablePool, tokenIn: Hex, received: bigint): HopQuote => {
  switch (pool.kind) {
    case "v2": {
      const zeroForOne = tokenIn === pool.token0
      const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0]
      if (reserveIn + received > V2_RESERVE_MAX) return unfillable("insufficient_liquidity")
      const out = getAmountOut(received, reserveIn, reserveOut, BigInt(pool.feeBps))
      const [reserve0, reserve1] = zeroForOne
        ? [reserveIn + received, reserveOut - out]
        : [reserveOut - out, reserveIn + received]
      return { _tag: "Quoted", amountIn: received, amountOut: out, poolAfter: { ...pool, reserve0, reserve1 } }
    }
    case "v3":
    case "v4": {
      if (pool.sqrtPriceX96 === 0n) return unfillable("insufficient_liquidity")
      if (pool.kind === "v4" && received > V4_AMOUNT_MAX) return unfillable("insufficient_liquidity")
      const zeroForOne = tokenIn === pool.token0
      const feePips = concentratedFeePips(pool, zeroForOne)
      const result = swap(pool, { zeroForOne, amountSpecified: received, feePips })
      if (result.amountIn < received) return unfillable("insufficient_liquidity")
      const { sqrtPriceX96, tick, liquidity } = result
      return {
        _tag: "Quoted",
        amountIn: received,
        amountOut: result.amountOut,
        poolAfter: { ...pool, sqrtPriceX96, tick, liquidity }
      }
    }
    case "curve": {
      if (!Curve.curveTradable(pool.curve)) return unfillable("curve_complete")
      const buying = tokenIn === pool.usdc
      if (buying && received > Curve.usdcBeforeGraduation(pool.curve)) return unfillable("curve_complete")
      const out = buying ? Curve.buyExactIn(pool.curve, received) : Curve.sellExactIn(pool.curve, received)
      const curve = buying ? Curve.afterBuy(pool.curve, received, out) : Curve.afterSell(pool.curve, received, out)
      return { _tag: "Quoted", amountIn: received, amountOut: out, poolAfter: { ...pool, curve } }
    }
  }
}

/** Smallest amount reaching the pool that makes it pay at least `out`. */
const poolInputFor = (pool: RoutablePool, tokenIn: Hex, out: bigint): bigint | undefined => {
  switch (pool.kind) {
    case "v2": {
      const zeroForOne = tokenIn === pool.token0
      const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0]
      const input = getAmountIn(out, reserveIn, reserveOut, BigInt(pool.feeBps))
      return input === undefined || reserveIn + input > V2_RESERVE_MAX ? undefined : input
    }
    case "v3":
    case "v4": {
      if (pool.sqrtPriceX96 === 0n) return undefined
      const zeroForOne = tokenIn === pool.token0
      const feePips = concentratedFeePips(pool, zeroForOne)
      const exactOut = swap(pool, { zeroForOne, amountSpecified: -out, feePips })
      if (exactOut.amountOut < out) return undefined
      // The pool's exact-output charge rounds its own way; the least exact input can be a few units lower.
      const delivers = (input: bigint) =>
        input > 0n && swap(pool, { zeroForOne, amountSpecified: input, feePips }).amountOut >= out
      let high = exactOut.amountIn
      let step = 1n
      while (step < high && delivers(high - step)) {
        high -= step
        step *= 2n
      }
      let low = high - step < 0n ? 0n : high - step // does not deliver (or is zero)
      while (high - low > 1n) {
        const middle = (low + high) / 2n
        if (delivers(middle)) high = middle
        else low = middle
      }
      return high
    }
    case "curve":
      return tokenIn === pool.usdc ? Curve.buyExactOut(pool.curve, out) : Curve.sellExactOut(pool.curve, out)
  }
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

export const quoteHop = (request: HopRequest): HopQuote => {
  const inputTaxBps = request.inputTaxBps ?? 0n
  const sent = request.side === "exactOut" ? leastHopInput(request) : refusal(request) ?? request.amount
  if (typeof sent !== "bigint") return sent
  const inPool = poolExactIn(request.pool, request.tokenIn, afterTax(sent, inputTaxBps))
  if (inPool._tag !== "Quoted") return inPool
  return { ...inPool, amountIn: sent, amountOut: afterTax(inPool.amountOut, request.outputTaxBps ?? 0n) }
}

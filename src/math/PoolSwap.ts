/**
 * The pools' own swaps, venue by venue, on indexed state: an exact input, the least input reaching the
 * pool that makes it pay an amount, and its exact-output swap, each with the pool state after it.
 * Transfer taxes and refusals are the caller's (./Hop.ts).
 */
import type { Hex } from "../../schema/Chain.js"
import { swap } from "./ConcentratedSwap.js"
import { getAmountIn, getAmountOut } from "./ConstantProduct.js"
import type { CurvePool, HopQuote, RoutablePool, UnfillableReason } from "./HopTypes.js"
import * as Curve from "./LaunchpadCurve.js"
import type { ConcentratedPool } from "./PoolState.js"
import { v4SwapFeePips } from "./V4Fees.js"

const unfillable = (reason: UnfillableReason): HopQuote => ({ _tag: "Unfillable", reason })

const concentratedFeePips = (pool: ConcentratedPool, zeroForOne: boolean): bigint =>
  pool.kind === "v4" ? v4SwapFeePips(pool.feePips, pool.protocolFee, zeroForOne) : BigInt(pool.feePips)

/** A v2 pair keeps its reserves in uint112: a swap that would take one past it reverts (`OVERFLOW`). */
const V2_RESERVE_MAX = 2n ** 112n - 1n
/** A v4 swap's deltas are int128: no larger amount can be swapped in one call. */
const V4_AMOUNT_MAX = 2n ** 127n - 1n

/** The pool's own exact-input swap of `received` (what reached it); undefined when it cannot take all of it. */
export const poolExactIn = (pool: RoutablePool, tokenIn: Hex, received: bigint): HopQuote => {
  switch (pool.kind) {
    case "v2": {
      // No destructured pairs on this path: route search prices hundreds of hops per quote.
      const zeroForOne = tokenIn === pool.token0
      const reserveIn = zeroForOne ? pool.reserve0 : pool.reserve1
      const reserveOut = zeroForOne ? pool.reserve1 : pool.reserve0
      if (reserveIn + received > V2_RESERVE_MAX) return unfillable("insufficient_liquidity")
      const out = getAmountOut(received, reserveIn, reserveOut, BigInt(pool.feePips))
      const poolAfter = zeroForOne
        ? { ...pool, reserve0: reserveIn + received, reserve1: reserveOut - out }
        : { ...pool, reserve0: reserveOut - out, reserve1: reserveIn + received }
      return { _tag: "Quoted", amountIn: received, amountOut: out, poolAfter }
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
export const poolInputFor = (pool: RoutablePool, tokenIn: Hex, out: bigint): bigint | undefined => {
  switch (pool.kind) {
    case "v2": {
      const zeroForOne = tokenIn === pool.token0
      const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0]
      const input = getAmountIn(out, reserveIn, reserveOut, BigInt(pool.feePips))
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

/** The pool's own exact-output swap: exactly `out` leaves it, for the input it charges (what a router's
 * exact-out step pays, which for v3 and v4 can be a few units above the least exact input). */
export const poolExactOut = (pool: Exclude<RoutablePool, CurvePool>, tokenIn: Hex, out: bigint): HopQuote => {
  const zeroForOne = tokenIn === pool.token0
  if (pool.kind === "v2") {
    const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0]
    const amountIn = getAmountIn(out, reserveIn, reserveOut, BigInt(pool.feePips))
    if (amountIn === undefined || reserveIn + amountIn > V2_RESERVE_MAX) return unfillable("insufficient_liquidity")
    const [reserve0, reserve1] = zeroForOne
      ? [reserveIn + amountIn, reserveOut - out]
      : [reserveOut - out, reserveIn + amountIn]
    return { _tag: "Quoted", amountIn, amountOut: out, poolAfter: { ...pool, reserve0, reserve1 } }
  }
  if (pool.sqrtPriceX96 === 0n) return unfillable("insufficient_liquidity")
  const result = swap(pool, { zeroForOne, amountSpecified: -out, feePips: concentratedFeePips(pool, zeroForOne) })
  if (result.amountOut < out) return unfillable("insufficient_liquidity")
  const { sqrtPriceX96, tick, liquidity } = result
  return {
    _tag: "Quoted",
    amountIn: result.amountIn,
    amountOut: out,
    poolAfter: { ...pool, sqrtPriceX96, tick, liquidity }
  }
}

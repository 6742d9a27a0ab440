/**
 * A whole swap through a concentrated-liquidity pool (Uniswap v3 `UniswapV3Pool.swap`, v4 `Pool.swap`),
 * computed off chain from the pool's price, active liquidity and initialized ticks. Steps stop at every
 * initialized tick and at every 256-tick bitmap word boundary, exactly as the contracts' loop does: the
 * per-step rounding then matches theirs and so does the result, to the unit.
 */
import { computeSwapStep } from "./SwapMath.js"
import {
  getSqrtPriceAtTick,
  getTickAtSqrtPrice,
  MAX_SQRT_PRICE,
  MAX_TICK,
  MIN_SQRT_PRICE,
  MIN_TICK
} from "./TickMath.js"

export interface TickLiquidity {
  readonly tick: number
  /** Liquidity added when the price crosses this tick upwards (removed downwards). */
  readonly liquidityNet: bigint
}

export interface ConcentratedState {
  readonly sqrtPriceX96: bigint
  /** slot0 tick: the greatest tick at or below the price, as the pool reports it. */
  readonly tick: number
  readonly liquidity: bigint
  readonly tickSpacing: number
  /** Initialized ticks in ascending order. */
  readonly ticks: ReadonlyArray<TickLiquidity>
}

export interface SwapRequest {
  readonly zeroForOne: boolean
  /** Positive: exact input; negative: exact output (v3's convention). */
  readonly amountSpecified: bigint
  /** Fee in pips (1e6 = 100%); in v4 the lp fee combined with any protocol fee. */
  readonly feePips: bigint
  readonly sqrtPriceLimitX96?: bigint
}

export interface SwapOutcome {
  /** Input taken from the trader, fee included. */
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly feeAmount: bigint
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
}

/** Index of the first tick `>= tick` (ticks.length if none). */
const lowerBound = (ticks: ReadonlyArray<TickLiquidity>, tick: number): number => {
  let low = 0
  let high = ticks.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (ticks[middle]!.tick < tick) low = middle + 1
    else high = middle
  }
  return low
}

interface NextTick {
  readonly tick: number
  readonly initialized: boolean
  readonly liquidityNet: bigint
}

/** `TickBitmap.nextInitializedTickWithinOneWord`, over a sorted list instead of a bitmap. */
export const nextInitializedTickWithinOneWord = (
  ticks: ReadonlyArray<TickLiquidity>,
  tick: number,
  tickSpacing: number,
  lte: boolean
): NextTick => {
  const compressed = Math.floor(tick / tickSpacing)
  if (lte) {
    const wordStart = (compressed - (compressed & 0xff)) * tickSpacing
    // greatest initialized tick <= compressed * spacing
    const index = lowerBound(ticks, compressed * tickSpacing + 1) - 1
    const found = index >= 0 ? ticks[index]! : undefined
    return found !== undefined && found.tick >= wordStart
      ? { tick: found.tick, initialized: true, liquidityNet: found.liquidityNet }
      : { tick: wordStart, initialized: false, liquidityNet: 0n }
  }
  const next = compressed + 1
  const wordEnd = (next + (0xff - (next & 0xff))) * tickSpacing
  const found = ticks[lowerBound(ticks, next * tickSpacing)]
  return found !== undefined && found.tick <= wordEnd
    ? { tick: found.tick, initialized: true, liquidityNet: found.liquidityNet }
    : { tick: wordEnd, initialized: false, liquidityNet: 0n }
}

export const swap = (pool: ConcentratedState, request: SwapRequest): SwapOutcome => {
  const { zeroForOne, amountSpecified, feePips } = request
  const limit = request.sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n)
  const limitValid = zeroForOne
    ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_PRICE
    : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_PRICE
  if (!limitValid) {
    return { amountIn: 0n, amountOut: 0n, feeAmount: 0n, ...pick(pool) }
  }
  const exactIn = amountSpecified > 0n
  let remaining = amountSpecified
  let sqrtPriceX96 = pool.sqrtPriceX96
  let tick = pool.tick
  let liquidity = pool.liquidity
  let amountIn = 0n
  let amountOut = 0n
  let feeAmount = 0n

  while (remaining !== 0n && sqrtPriceX96 !== limit) {
    const start = sqrtPriceX96
    const next = nextInitializedTickWithinOneWord(pool.ticks, tick, pool.tickSpacing, zeroForOne)
    const tickNext = Math.min(Math.max(next.tick, MIN_TICK), MAX_TICK)
    const sqrtPriceNext = getSqrtPriceAtTick(tickNext)
    const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit) ? limit : sqrtPriceNext
    const step = computeSwapStep(sqrtPriceX96, target, liquidity, remaining, feePips)
    sqrtPriceX96 = step.sqrtPriceNextX96
    remaining = exactIn ? remaining - (step.amountIn + step.feeAmount) : remaining + step.amountOut
    amountIn += step.amountIn + step.feeAmount
    amountOut += step.amountOut
    feeAmount += step.feeAmount

    if (sqrtPriceX96 === sqrtPriceNext) {
      if (next.initialized) {
        liquidity += zeroForOne ? -next.liquidityNet : next.liquidityNet
        if (liquidity < 0n) throw new RangeError("liquidity underflow while crossing a tick")
      }
      tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (sqrtPriceX96 !== start) {
      tick = getTickAtSqrtPrice(sqrtPriceX96)
    }
  }
  return { amountIn, amountOut, feeAmount, sqrtPriceX96, tick, liquidity }
}

const pick = (pool: ConcentratedState) => ({
  sqrtPriceX96: pool.sqrtPriceX96,
  tick: pool.tick,
  liquidity: pool.liquidity
})

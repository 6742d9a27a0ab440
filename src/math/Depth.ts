/**
 * Depth: the input, fee included, that moves a pool's mid price by a given number of basis points
 * (2% for the search evidence). It comes from the same swap math that executes trades, never from TVL:
 * two pools with equal TVL can differ by orders of magnitude in depth when liquidity is concentrated.
 */
import { type ConcentratedState, swap } from "./ConcentratedSwap.js"
import { divRoundingUp, sqrt } from "./FullMath.js"
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "./TickMath.js"

const BPS = 10_000n
const PIPS = 1_000_000n
/** Larger than any real balance: a swap with this exact input runs until the price limit. */
const UNLIMITED = (1n << 255n) - 1n

/**
 * Input of token-in that lowers token-in's price (in token-out) by `moveBps` in a constant-product pair.
 * With reserves x (in) and y (out), the mid price y/x becomes k/x'², so x' = x·sqrt(1 / (1 − move)).
 */
export const constantProductDepth = (reserveIn: bigint, feePips: bigint, moveBps: bigint): bigint => {
  if (reserveIn <= 0n) return 0n
  const reserveAfter = sqrt((reserveIn * reserveIn * BPS) / (BPS - moveBps))
  return divRoundingUp((reserveAfter - reserveIn) * PIPS, PIPS - feePips)
}

/** The sqrt-price at which the price (token1 per token0) is `moveBps` lower (or higher). */
export const movedSqrtPrice = (sqrtPriceX96: bigint, moveBps: bigint, down: boolean): bigint => {
  const moved = sqrt((sqrtPriceX96 * sqrtPriceX96 * (down ? BPS - moveBps : BPS + moveBps)) / BPS)
  if (moved <= MIN_SQRT_PRICE) return MIN_SQRT_PRICE + 1n
  if (moved >= MAX_SQRT_PRICE) return MAX_SQRT_PRICE - 1n
  return moved
}

/**
 * Input that moves a concentrated-liquidity pool's price `moveBps` against the trader: token0 in
 * (`zeroForOne`) lowers the price, token1 in raises it. Liquidity that runs out before the price gets
 * there simply stops contributing: the answer is what the pool can absorb up to that price.
 */
export const concentratedDepth = (
  pool: ConcentratedState,
  feePips: bigint,
  zeroForOne: boolean,
  moveBps: bigint
): bigint =>
  swap(pool, {
    zeroForOne,
    amountSpecified: UNLIMITED,
    feePips,
    sqrtPriceLimitX96: movedSqrtPrice(pool.sqrtPriceX96, moveBps, zeroForOne)
  }).amountIn

/**
 * Prices and amounts within one liquidity range, as Uniswap v3/v4 `SqrtPriceMath` computes them. The
 * contracts switch formulas where a uint256 would overflow and the two formulas round differently, so
 * those overflow tests are kept: they decide the last unit of the result.
 */
import { divRoundingUp, MAX_UINT160, MAX_UINT256, mulDiv, mulDivRoundingUp, Q96 } from "./FullMath.js"

const fitsUint256 = (value: bigint): boolean => value <= MAX_UINT256

/** Next sqrt-price after adding (or removing) `amount` of token0; rounds up. */
export const getNextSqrtPriceFromAmount0RoundingUp = (
  sqrtPriceX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean
): bigint => {
  if (amount === 0n) return sqrtPriceX96
  const numerator1 = liquidity << 96n
  const product = amount * sqrtPriceX96
  if (add) {
    if (fitsUint256(product) && fitsUint256(numerator1 + product)) {
      return mulDivRoundingUp(numerator1, sqrtPriceX96, numerator1 + product)
    }
    return divRoundingUp(numerator1, numerator1 / sqrtPriceX96 + amount)
  }
  if (!fitsUint256(product) || numerator1 <= product) throw new RangeError("not enough token0 liquidity")
  const next = mulDivRoundingUp(numerator1, sqrtPriceX96, numerator1 - product)
  if (next > MAX_UINT160) throw new RangeError("sqrt price overflow")
  return next
}

/** Next sqrt-price after adding (or removing) `amount` of token1; rounds down. */
export const getNextSqrtPriceFromAmount1RoundingDown = (
  sqrtPriceX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean
): bigint => {
  if (add) return sqrtPriceX96 + mulDiv(amount, Q96, liquidity)
  const quotient = mulDivRoundingUp(amount, Q96, liquidity)
  if (sqrtPriceX96 <= quotient) throw new RangeError("not enough token1 liquidity")
  return sqrtPriceX96 - quotient
}

/**
 * Next sqrt-price after a swap's input (`exactIn`, Uniswap's `getNextSqrtPriceFromInput`) or its output
 * (`getNextSqrtPriceFromOutput`): the amount counts in token0 when it is the input of a zeroForOne swap
 * or the output of the other direction, in token1 otherwise.
 */
export const getNextSqrtPriceFromAmount = (
  sqrtPriceX96: bigint,
  liquidity: bigint,
  amount: bigint,
  zeroForOne: boolean,
  exactIn: boolean
): bigint =>
  zeroForOne === exactIn
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPriceX96, liquidity, amount, exactIn)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPriceX96, liquidity, amount, exactIn)

/** token0 between two sqrt-prices for `liquidity`: L·(√b − √a)/(√a·√b). */
export const getAmount0Delta = (sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint => {
  // Two comparisons rather than a destructured pair: these run several times per swap step.
  const lower = sqrtA <= sqrtB ? sqrtA : sqrtB
  const upper = sqrtA <= sqrtB ? sqrtB : sqrtA
  if (lower === 0n) throw new RangeError("sqrt price is zero")
  const numerator1 = liquidity << 96n
  const numerator2 = upper - lower
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower)
    : mulDiv(numerator1, numerator2, upper) / lower
}

/** token1 between two sqrt-prices for `liquidity`: L·(√b − √a). */
export const getAmount1Delta = (sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint => {
  const range = sqrtA <= sqrtB ? sqrtB - sqrtA : sqrtA - sqrtB
  return roundUp ? mulDivRoundingUp(liquidity, range, Q96) : mulDiv(liquidity, range, Q96)
}

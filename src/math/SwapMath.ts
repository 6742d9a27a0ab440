/**
 * One step of a concentrated-liquidity swap, as Uniswap v3 `SwapMath.computeSwapStep` computes it: swap
 * within one liquidity range towards `sqrtPriceTargetX96` until the price gets there or the amount is used.
 * `amountRemaining` follows v3's sign: positive is exact input, negative exact output. Fees are in pips
 * (hundredths of a basis point, 1e6 = 100%).
 */
import { mulDiv, mulDivRoundingUp } from "./FullMath.js"
import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromAmount } from "./SqrtPriceMath.js"

export const MAX_FEE_PIPS = 1_000_000n

export interface SwapStep {
  readonly sqrtPriceNextX96: bigint
  /** Input that moves the price, fee excluded. */
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly feeAmount: bigint
}

export const computeSwapStep = (
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint
): SwapStep => {
  const zeroForOne = sqrtPriceCurrentX96 >= sqrtPriceTargetX96
  const exactIn = amountRemaining >= 0n
  let sqrtPriceNextX96: bigint
  let amountIn = 0n
  let amountOut = 0n

  if (exactIn) {
    const remainingLessFee = mulDiv(amountRemaining, MAX_FEE_PIPS - feePips, MAX_FEE_PIPS)
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, true)
    sqrtPriceNextX96 = remainingLessFee >= amountIn
      ? sqrtPriceTargetX96
      : getNextSqrtPriceFromAmount(sqrtPriceCurrentX96, liquidity, remainingLessFee, zeroForOne, exactIn)
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, false)
    sqrtPriceNextX96 = -amountRemaining >= amountOut
      ? sqrtPriceTargetX96
      : getNextSqrtPriceFromAmount(sqrtPriceCurrentX96, liquidity, -amountRemaining, zeroForOne, exactIn)
  }

  const reachedTarget = sqrtPriceNextX96 === sqrtPriceTargetX96
  if (zeroForOne) {
    if (!(reachedTarget && exactIn)) {
      amountIn = getAmount0Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, true)
    }
    if (!(reachedTarget && !exactIn)) {
      amountOut = getAmount1Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, false)
    }
  } else {
    if (!(reachedTarget && exactIn)) {
      amountIn = getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, true)
    }
    if (!(reachedTarget && !exactIn)) {
      amountOut = getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, false)
    }
  }

  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining

  const feeAmount = exactIn && !reachedTarget
    // The rest of the input is the fee: whatever rounding left over goes to liquidity providers.
    ? amountRemaining - amountIn
    : feePips === MAX_FEE_PIPS
    ? amountIn
    : mulDivRoundingUp(amountIn, feePips, MAX_FEE_PIPS - feePips)

  return { sqrtPriceNextX96, amountIn, amountOut, feeAmount }
}

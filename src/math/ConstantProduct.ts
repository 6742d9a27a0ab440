/**
 * Uniswap v2 pair math (`UniswapV2Library`), with the fee as a parameter in basis points so that forks
 * with other fees price the same way. For 30 bps the results equal v2's `* 997 / 1000` formulas exactly:
 * numerator and denominator are the same up to a common factor of 10.
 */
export const V2_FEE_BPS = 30n
const BPS = 10_000n

export const getAmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps = V2_FEE_BPS): bigint => {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n
  const amountInWithFee = amountIn * (BPS - feeBps)
  return (amountInWithFee * reserveOut) / (reserveIn * BPS + amountInWithFee)
}

/** Smallest input that yields `amountOut`; `undefined` when the pair cannot pay that much. */
export const getAmountIn = (
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps = V2_FEE_BPS
): bigint | undefined => {
  if (amountOut <= 0n || reserveIn <= 0n || amountOut >= reserveOut) return undefined
  return (reserveIn * amountOut * BPS) / ((reserveOut - amountOut) * (BPS - feeBps)) + 1n
}

/**
 * Uniswap v2 pair math (`UniswapV2Library`), with the fee as a parameter in hundredths of a basis point
 * (pips, as v3 fees and the venue file count) so that forks with other fees, fixed or per pair, price the
 * same way. A pair whose fee is `f` out of `d` (3 out of 1000, 25 out of 10000…) prices exactly as
 * `f · 10⁶ / d` pips whenever `d` divides 10⁶: numerator and denominator of each formula are then the
 * pair's own up to a common factor, so every floor is the same. For 3000 pips the results equal v2's
 * `* 997 / 1000` formulas exactly.
 */
export const V2_FEE_PIPS = 3000n
const PIPS = 1_000_000n

export const getAmountOut = (
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feePips = V2_FEE_PIPS
): bigint => {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n
  const amountInWithFee = amountIn * (PIPS - feePips)
  return (amountInWithFee * reserveOut) / (reserveIn * PIPS + amountInWithFee)
}

/** Smallest input that yields `amountOut`; `undefined` when the pair cannot pay that much. */
export const getAmountIn = (
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feePips = V2_FEE_PIPS
): bigint | undefined => {
  if (amountOut <= 0n || reserveIn <= 0n || amountOut >= reserveOut) return undefined
  return (reserveIn * amountOut * PIPS) / ((reserveOut - amountOut) * (PIPS - feePips)) + 1n
}

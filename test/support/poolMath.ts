/**
 * Reference pool math for the devnet tests, written from the Uniswap whitepapers' formulas and the
 * rounding the contracts document: v2's constant product with its 0.3 % fee, and one exact-input
 * step of v3/v4 concentrated liquidity that stays inside the current tick range (no crossing).
 */
export const Q96 = 1n << 96n
const PIPS = 1_000_000n

const divUp = (a: bigint, b: bigint) => (a + b - 1n) / b

export const v2AmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)

export interface StepResult {
  readonly amountOut: bigint
  readonly sqrtPriceAfter: bigint
}

/**
 * Exact input of `amountIn` at `feePips` (hundredths of a bip) with liquidity `liquidity` at
 * `sqrtPriceX96`. The fee comes off the input first; the rest moves the price:
 *   token0 in: sqrtP' = ceil(L·Q96·sqrtP / (L·Q96 + Δx·sqrtP)),   out = floor(L·(sqrtP − sqrtP') / Q96)
 *   token1 in: sqrtP' = sqrtP + floor(Δy·Q96 / L),                 out = floor(floor(L·Q96·(sqrtP' − sqrtP) / sqrtP') / sqrtP)
 */
export const exactInStep = (
  sqrtPriceX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  feePips: bigint,
  zeroForOne: boolean
): StepResult => {
  const lessFee = (amountIn * (PIPS - feePips)) / PIPS
  if (zeroForOne) {
    const numerator = liquidity << 96n
    const next = divUp(numerator * sqrtPriceX96, numerator + lessFee * sqrtPriceX96)
    return { sqrtPriceAfter: next, amountOut: (liquidity * (sqrtPriceX96 - next)) / Q96 }
  }
  const next = sqrtPriceX96 + (lessFee << 96n) / liquidity
  const amountOut = ((liquidity << 96n) * (next - sqrtPriceX96)) / next / sqrtPriceX96
  return { sqrtPriceAfter: next, amountOut }
}

/**
 * USD amounts are bigint micro-dollars (USDC base units) until they leave as decimal strings.
 * Prices are micro-dollars per base unit of a token, scaled by 1e36 so that an 18-decimal token worth
 * a billionth of a dollar still has 12 significant digits.
 */
export const PRICE_SCALE = 10n ** 36n

/** Micro-dollars of `amount` base units at `price`. */
export const usdOf = (amount: bigint, price: bigint): bigint => (amount * price) / PRICE_SCALE

/** `1234567n` → `"1.234567"`; trailing zeros dropped, never exponent notation. */
export const usdString = (micro: bigint): string => {
  const sign = micro < 0n ? "-" : ""
  const value = micro < 0n ? -micro : micro
  const whole = value / 1_000_000n
  const fraction = (value % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "")
  return `${sign}${whole}${fraction.length > 0 ? `.${fraction}` : ""}`
}

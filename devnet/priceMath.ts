/**
 * Just enough concentrated-liquidity arithmetic to seed pools at chosen prices. Seeding only needs to
 * be close (the pools themselves do the exact math), so tick prices come from floating point; prices
 * and liquidity stay in bigint.
 */
export const Q96 = 1n << 96n
export const MIN_TICK = -887272
export const MAX_TICK = 887272

export const isqrt = (n: bigint): bigint => {
  if (n < 0n) throw new RangeError("square root of a negative number")
  if (n < 2n) return n
  // Newton's method from a power of two above the root decreases monotonically to floor(sqrt(n)).
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x) return x
    x = y
  }
}

/** sqrt(amount1 / amount0) in Q64.96: the price at which these raw reserves are balanced. */
export const sqrtPriceX96For = (amount0: bigint, amount1: bigint): bigint => isqrt((amount1 << 192n) / amount0)

/** Nearest tick at or below a sqrt price (floating point; fine for placing ranges). */
export const tickAt = (sqrtPriceX96: bigint): number => {
  const price = (Number(sqrtPriceX96) / Number(Q96)) ** 2
  return Math.floor(Math.log(price) / Math.log(1.0001))
}

export const sqrtPriceAt = (tick: number): bigint => {
  const sqrt = Math.sqrt(1.0001) ** tick
  // Split into mantissa and exponent so huge and tiny ratios keep their precision.
  const exponent = Math.floor(Math.log2(sqrt))
  const mantissa = sqrt / 2 ** exponent
  const scaled = BigInt(Math.floor(mantissa * 2 ** 52))
  const shift = 96 + exponent - 52
  return shift >= 0 ? scaled << BigInt(shift) : scaled >> BigInt(-shift)
}

const floorTo = (tick: number, spacing: number) => Math.floor(tick / spacing) * spacing

export const fullRange = (spacing: number): readonly [number, number] => [
  Math.ceil(MIN_TICK / spacing) * spacing,
  floorTo(MAX_TICK, spacing)
]

/** A range of about ±`percent` % around the price, on the spacing grid. */
export const rangeAround = (sqrtPriceX96: bigint, percent: number, spacing: number): readonly [number, number] => {
  const tick = tickAt(sqrtPriceX96)
  const width = Math.ceil(Math.log(1 + percent / 100) / Math.log(1.0001))
  const [min, max] = fullRange(spacing)
  return [Math.max(min, floorTo(tick - width, spacing)), Math.min(max, floorTo(tick + width, spacing) + spacing)]
}

/** Largest liquidity that (amount0, amount1) can back in [lower, upper] at the current price. */
export const liquidityFor = (
  sqrtPriceX96: bigint,
  [lower, upper]: readonly [number, number],
  amount0: bigint,
  amount1: bigint
): bigint => {
  const a = sqrtPriceAt(lower)
  const b = sqrtPriceAt(upper)
  const p = sqrtPriceX96 < a ? a : sqrtPriceX96 > b ? b : sqrtPriceX96
  const from0 = p < b ? (amount0 * p / Q96) * b / (b - p) : undefined
  const from1 = p > a ? amount1 * Q96 / (p - a) : undefined
  if (from0 === undefined) return from1 ?? 0n
  if (from1 === undefined) return from0
  return from0 < from1 ? from0 : from1
}

/**
 * Integer helpers with the rounding of Uniswap's FullMath and UnsafeMath. A bigint never overflows, so
 * what remains of those libraries is where they round: down (`mulDiv`) or up (`mulDivRoundingUp`).
 */
export const Q96 = 1n << 96n
export const Q128 = 1n << 128n
export const Q192 = 1n << 192n
export const MAX_UINT160 = (1n << 160n) - 1n
export const MAX_UINT256 = (1n << 256n) - 1n

export const mulDiv = (a: bigint, b: bigint, denominator: bigint): bigint => (a * b) / denominator

// A remainder test by multiplying back: one bigint division per call instead of two (these run in
// every swap step, hundreds of times per route search).
export const mulDivRoundingUp = (a: bigint, b: bigint, denominator: bigint): bigint => {
  const product = a * b
  const quotient = product / denominator
  return quotient * denominator === product ? quotient : quotient + 1n
}

export const divRoundingUp = (a: bigint, denominator: bigint): bigint => {
  const quotient = a / denominator
  return quotient * denominator === a ? quotient : quotient + 1n
}

/** Floor of the square root; places the sqrt-price 2% away from the current one. */
export const sqrt = (value: bigint): bigint => {
  if (value < 0n) throw new RangeError("square root of a negative number")
  if (value < 2n) return value
  // Start above the root (2^ceil(bits/2) >= sqrt): Newton's iteration then decreases to the floor.
  let x = 1n << (BigInt(value.toString(2).length) / 2n + 1n)
  for (;;) {
    const y = (x + value / x) >> 1n
    if (y >= x) return x
    x = y
  }
}

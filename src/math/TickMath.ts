/**
 * Tick ↔ sqrt-price conversion exactly as Uniswap v3 and v4 compute it on chain. The factors are
 * 2^128 / sqrt(1.0001)^(2^i) in Q128; multiplying the ones whose bit is set in |tick| gives the price of
 * the tick with the contracts' own truncation, so our ticks and theirs agree to the last bit.
 */
import { MAX_UINT256 } from "./FullMath.js"

export const MIN_TICK = -887272
export const MAX_TICK = 887272
export const MIN_SQRT_PRICE = 4295128739n
export const MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342n

const factors: ReadonlyArray<bigint> = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n
]

const ONE_Q128 = 1n << 128n
const Q32 = 1n << 32n

/**
 * Route search prices the same pools hundreds of times per request, so the same ticks come back again
 * and again (range boundaries, word boundaries, the ticks around each pool's price): remembered, up to
 * a bound that keeps the table small.
 */
const known = new Map<number, bigint>()
const KNOWN_MAX = 65_536

/** sqrt(1.0001^tick) · 2^96, rounded up as `TickMath.getSqrtPriceAtTick` does. */
export const getSqrtPriceAtTick = (tick: number): bigint => {
  const cached = known.get(tick)
  if (cached !== undefined) return cached
  const price = computeSqrtPriceAtTick(tick)
  if (known.size >= KNOWN_MAX) known.clear()
  known.set(tick, price)
  return price
}

const computeSqrtPriceAtTick = (tick: number): bigint => {
  const absTick = Math.abs(tick)
  if (!Number.isInteger(tick) || absTick > MAX_TICK) throw new RangeError(`tick ${tick} out of range`)
  let ratio = (absTick & 1) !== 0 ? factors[0]! : ONE_Q128
  for (let bit = 1; bit < factors.length; bit++) {
    if ((absTick & (1 << bit)) !== 0) ratio = (ratio * factors[bit]!) >> 128n
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio
  // Q128 → Q96, rounding up so that getTickAtSqrtPrice(getSqrtPriceAtTick(t)) == t.
  return (ratio >> 32n) + (ratio % Q32 === 0n ? 0n : 1n)
}

/**
 * The greatest tick whose sqrt-price is at most `sqrtPriceX96`: the same answer as the contracts'
 * log2 approximation. A floating-point logarithm lands within a tick of it (its error is ~1e-8 ticks);
 * `getSqrtPriceAtTick` then settles the last tick exactly, in two or three evaluations instead of a
 * 21-step bisection (swaps call this once per step, so it dominates their cost).
 */
export const getTickAtSqrtPrice = (sqrtPriceX96: bigint): number => {
  if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE) {
    throw new RangeError(`sqrt price ${sqrtPriceX96} out of range`)
  }
  const estimate = Math.floor((2 * Math.log(Number(sqrtPriceX96) / 2 ** 96)) / Math.log(1.0001))
  let tick = Math.min(Math.max(estimate, MIN_TICK), MAX_TICK)
  while (tick > MIN_TICK && getSqrtPriceAtTick(tick) > sqrtPriceX96) tick--
  while (tick < MAX_TICK && getSqrtPriceAtTick(tick + 1) <= sqrtPriceX96) tick++
  return tick
}

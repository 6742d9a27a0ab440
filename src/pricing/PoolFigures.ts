/**
 * What a pool holds and how deep it is, in base units of its two tokens: the liquidity amounts (v2
 * reserves; for v3/v4 the tokens its positions hold, from the ticks) and the input that moves its price
 * 2% each way (from the swap math). Computed once per pool record: records are immutable, so a
 * `WeakMap` keyed by the record is a cache that invalidates itself when a swap replaces the record.
 */
import { HOOK_FLAG_MASK } from "../../schema/Chain.js"
import { concentratedDepth, constantProductDepth } from "../math/Depth.js"
import type { ConcentratedPool, Pool } from "../math/PoolState.js"
import { getAmount0Delta, getAmount1Delta } from "../math/SqrtPriceMath.js"
import { getSqrtPriceAtTick } from "../math/TickMath.js"
import { v4SwapFeePips } from "../math/V4Fees.js"

export const DEPTH_MOVE_BPS = 200n

/** v4 hook permission bits that let a hook change swap amounts (`Hooks.sol`). */
const BEFORE_SWAP_RETURNS_DELTA = 1n << 3n
const AFTER_SWAP_RETURNS_DELTA = 1n << 2n

export interface PoolFigures {
  readonly amount0: bigint
  readonly amount1: bigint
  /** token0 in (price of token0 falls 2%), token1 in (rises 2%), fee included. */
  readonly depthIn0: bigint
  readonly depthIn1: bigint
  /** The pool's swaps follow the math exactly: no dynamic fee, no delta-returning hook. */
  readonly exact: boolean
  /** Liquidity at the current price, so the mid price costs something to move. */
  readonly live: boolean
}

const empty: PoolFigures = { amount0: 0n, amount1: 0n, depthIn0: 0n, depthIn1: 0n, exact: true, live: false }

const heldAmounts = (pool: ConcentratedPool): readonly [bigint, bigint] => {
  let amount0 = 0n
  let amount1 = 0n
  let liquidity = 0n
  const price = pool.sqrtPriceX96
  for (let i = 0; i < pool.ticks.length - 1; i++) {
    liquidity += pool.ticks[i]!.liquidityNet
    if (liquidity <= 0n) continue
    const lower = getSqrtPriceAtTick(pool.ticks[i]!.tick)
    const upper = getSqrtPriceAtTick(pool.ticks[i + 1]!.tick)
    if (price <= lower) amount0 += getAmount0Delta(lower, upper, liquidity, false)
    else if (price >= upper) amount1 += getAmount1Delta(lower, upper, liquidity, false)
    else {
      amount0 += getAmount0Delta(price, upper, liquidity, false)
      amount1 += getAmount1Delta(lower, price, liquidity, false)
    }
  }
  return [amount0, amount1]
}

const concentrated = (pool: ConcentratedPool): PoolFigures => {
  if (pool.sqrtPriceX96 === 0n || pool.ticks.length === 0) return empty
  const hookBits = pool.hooks === null ? 0n : BigInt(pool.hooks) & BigInt(HOOK_FLAG_MASK)
  const returnsDelta = (hookBits & (BEFORE_SWAP_RETURNS_DELTA | AFTER_SWAP_RETURNS_DELTA)) !== 0n
  // A dynamic fee is whatever the hook says at swap time: priced at zero fee, the depth is a lower bound.
  const fee = (zeroForOne: boolean): bigint =>
    pool.dynamicFee
      ? 0n
      : pool.kind === "v4"
      ? v4SwapFeePips(pool.feePips, pool.protocolFee, zeroForOne)
      : BigInt(pool.feePips)
  const [amount0, amount1] = heldAmounts(pool)
  return {
    amount0,
    amount1,
    depthIn0: concentratedDepth(pool, fee(true), true, DEPTH_MOVE_BPS),
    depthIn1: concentratedDepth(pool, fee(false), false, DEPTH_MOVE_BPS),
    exact: !pool.dynamicFee && !returnsDelta,
    live: pool.liquidity > 0n
  }
}

const compute = (pool: Pool): PoolFigures => {
  if (pool.kind !== "v2") return concentrated(pool)
  if (pool.reserve0 === 0n || pool.reserve1 === 0n) return empty
  const fee = BigInt(pool.feePips)
  return {
    amount0: pool.reserve0,
    amount1: pool.reserve1,
    depthIn0: constantProductDepth(pool.reserve0, fee, DEPTH_MOVE_BPS),
    depthIn1: constantProductDepth(pool.reserve1, fee, DEPTH_MOVE_BPS),
    exact: true,
    live: true
  }
}

const cache = new WeakMap<Pool, PoolFigures>()

export const poolFigures = (pool: Pool): PoolFigures => {
  let figures = cache.get(pool)
  if (figures === undefined) {
    figures = compute(pool)
    cache.set(pool, figures)
  }
  return figures
}

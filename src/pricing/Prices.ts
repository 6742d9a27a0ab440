/**
 * USD prices, computed lazily per token and remembered for one snapshot.
 *
 * USDC (either form) is $1. Every other token is priced by the mid price of its deepest pool against
 * a pricing source, deepest meaning the most USD it costs to move that pool's price 2%. Pricing sources
 * are USDC and the verified tokens: an unverified token never prices another, so a thin pool of an
 * unknown token cannot spread a made-up price through the market. Paths thus run token → (verified
 * token →)* USDC, the deepest at each step; a verified token's own path only through verified tokens.
 *
 * Lazy and local: a query touches a handful of tokens and their pools, never the whole market, so the
 * cost of a new block does not grow with the number of pools.
 */
import { HashMap, Option } from "effect"
import { type Hex, NATIVE_PER_USDC_UNIT } from "../../schema/Chain.js"
import { NATIVE } from "../indexer/Sources.js"
import type { IndexState } from "../indexer/State.js"
import { Q192 } from "../math/FullMath.js"
import type { Pool } from "../math/PoolState.js"
import { poolFigures } from "./PoolFigures.js"
import { PRICE_SCALE, usdOf } from "./Usd.js"

/** Price of the other token of `pool`, given the price of `token` (base units on both sides). */
export const priceAcross = (pool: Pool, token: Hex, price: bigint): bigint | undefined => {
  const isToken0 = pool.token0 === token
  if (pool.kind === "v2") {
    const [mine, theirs] = isToken0 ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0]
    return theirs === 0n ? undefined : (price * mine) / theirs
  }
  const squared = pool.sqrtPriceX96 * pool.sqrtPriceX96
  if (squared === 0n) return undefined
  // sqrtPrice² / 2^192 is token1 per token0
  return isToken0 ? (price * Q192) / squared : (price * squared) / Q192
}

export interface Prices {
  readonly price: (token: Hex) => bigint | undefined
  /** USDC, and the verified tokens: what may price others. */
  readonly isSource: (token: Hex) => boolean
}

export const makePrices = (state: IndexState, usdc: Hex, verified: ReadonlySet<Hex>): Prices => {
  const memo = new Map<Hex, bigint | undefined>([[usdc, PRICE_SCALE], [NATIVE, PRICE_SCALE / NATIVE_PER_USDC_UNIT]])
  const inProgress = new Set<Hex>()
  const isSource = (token: Hex) => token === usdc || token === NATIVE || verified.has(token)

  /** Only pools against a source can price a token: a hub with thousands of pools reads a few. */
  const sourcePools = (token: Hex): ReadonlyArray<Pool> => {
    const facts = Option.getOrUndefined(HashMap.get(state.tokens, token))
    return (facts?.pools ?? []).flatMap((
      ref
    ) => (isSource(ref.other) ? Option.toArray(HashMap.get(state.pools, ref.id)) : []))
  }

  const price = (token: Hex): bigint | undefined => {
    if (memo.has(token)) return memo.get(token)
    // A cycle among verified tokens: this path adds nothing the outer call does not already try.
    if (inProgress.has(token)) return undefined
    inProgress.add(token)
    let best: bigint | undefined
    let bestWidth = -1n
    for (const pool of sourcePools(token)) {
      const other = pool.token0 === token ? pool.token1 : pool.token0
      const figures = poolFigures(pool)
      if (!figures.live) continue
      const otherPrice = price(other)
      if (otherPrice === undefined) continue
      const width = usdOf(pool.token0 === other ? figures.depthIn0 : figures.depthIn1, otherPrice)
      if (width <= bestWidth) continue
      const candidate = priceAcross(pool, other, otherPrice)
      if (candidate === undefined || candidate === 0n) continue
      best = candidate
      bestWidth = width
    }
    inProgress.delete(token)
    memo.set(token, best)
    return best
  }
  return { price, isSource }
}

/**
 * USD figures of one snapshot: per token, the liquidity and 2% depth of its pools.
 *
 * A pool is valued from one anchor, the better known of its two tokens (USDC, else a verified token,
 * else whichever has a price), with the other side at the pool's own mid price: the usual way to
 * value a pool, and it needs one price, not two. A pool's value depends only on its record and its
 * anchor's price, so it is cached across snapshots until either changes: pools against USDC are valued
 * once per swap, however many blocks go by.
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { IndexState } from "../indexer/State.js"
import type { Pool } from "../math/PoolState.js"
import { poolFigures } from "./PoolFigures.js"
import { makePrices, priceAcross, type Prices } from "./Prices.js"
import { usdOf } from "./Usd.js"

export interface PoolValue {
  readonly pool: Pool
  readonly liquidityMicro: bigint
  readonly depthMicro: bigint
  /** Exact swap math and a priced anchor (or no liquidity to speak of). */
  readonly exact: boolean
}

export interface TokenFigures {
  readonly liquidityMicro: bigint
  readonly depthMicro: bigint
  /** Every pool with liquidity was valued with exact math from a priced anchor. */
  readonly exact: boolean
  /** Deepest first. */
  readonly pools: ReadonlyArray<PoolValue>
}

export interface Valuation {
  readonly price: (token: Hex) => bigint | undefined
  readonly figures: (token: Hex) => TokenFigures
}

const anchorOf = (pool: Pool, prices: Prices): readonly [Hex, bigint] | undefined => {
  const ranked = [pool.token0, pool.token1].sort((a, b) => Number(prices.isSource(b)) - Number(prices.isSource(a)))
  for (const token of ranked) {
    const price = prices.price(token)
    if (price !== undefined) return [token, price]
  }
  return undefined
}

interface Cached {
  readonly anchor: Hex
  readonly anchorPrice: bigint
  readonly value: PoolValue
}

const cache = new WeakMap<Pool, Cached>()

const valueOf = (pool: Pool, prices: Prices): PoolValue => {
  const figures = poolFigures(pool)
  const anchored = figures.live ? anchorOf(pool, prices) : undefined
  if (anchored === undefined) {
    return { pool, liquidityMicro: 0n, depthMicro: 0n, exact: !figures.live }
  }
  const [anchor, anchorPrice] = anchored
  const hit = cache.get(pool)
  if (hit !== undefined && hit.anchor === anchor && hit.anchorPrice === anchorPrice) return hit.value
  const otherPrice = priceAcross(pool, anchor, anchorPrice) ?? 0n
  const [price0, price1] = pool.token0 === anchor ? [anchorPrice, otherPrice] : [otherPrice, anchorPrice]
  const depth0 = usdOf(figures.depthIn0, price0)
  const depth1 = usdOf(figures.depthIn1, price1)
  const value: PoolValue = {
    pool,
    liquidityMicro: usdOf(figures.amount0, price0) + usdOf(figures.amount1, price1),
    // The shallower direction: buying and selling both matter to whoever has to exit.
    depthMicro: depth0 < depth1 ? depth0 : depth1,
    exact: figures.exact
  }
  cache.set(pool, { anchor, anchorPrice, value })
  return value
}

const deeperFirst = (a: PoolValue, b: PoolValue): number =>
  a.depthMicro !== b.depthMicro
    ? (b.depthMicro > a.depthMicro ? 1 : -1)
    : b.liquidityMicro > a.liquidityMicro
    ? 1
    : b.liquidityMicro < a.liquidityMicro
    ? -1
    : 0

export const valuationOf = (state: IndexState, usdc: Hex, verified: ReadonlySet<Hex>): Valuation => {
  const prices = makePrices(state, usdc, verified)
  const memo = new Map<Hex, TokenFigures>()
  const figures = (token: Hex): TokenFigures => {
    const known = memo.get(token)
    if (known !== undefined) return known
    const facts = Option.getOrUndefined(HashMap.get(state.tokens, token))
    const records = (facts?.pools ?? []).flatMap((ref) => Option.toArray(HashMap.get(state.pools, ref.id)))
    let liquidityMicro = 0n
    let depthMicro = 0n
    let exact = true
    const pools: Array<PoolValue> = []
    for (const pool of records) {
      const value = valueOf(pool, prices)
      liquidityMicro += value.liquidityMicro
      depthMicro += value.depthMicro
      exact &&= value.exact
      pools.push(value)
    }
    pools.sort(deeperFirst)
    const result: TokenFigures = { liquidityMicro, depthMicro, exact, pools }
    memo.set(token, result)
    return result
  }
  return { price: prices.price, figures }
}

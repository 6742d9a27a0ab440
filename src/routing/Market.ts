/**
 * What route search reads: pools by id and the pools of a token. Built over one index snapshot (plus
 * the launchpad curves, which the index does not hold as pools), so a whole search prices one block.
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { IndexState } from "../indexer/State.js"
import type { CurvePool, RoutablePool } from "../math/Hop.js"

export interface Market {
  readonly pool: (id: Hex) => RoutablePool | undefined
  /** Ids of the pools that trade `a` against `b`, in a stable order. */
  readonly poolsBetween: (a: Hex, b: Hex) => ReadonlyArray<Hex>
}

interface PoolRefs {
  readonly refs: (token: Hex) => ReadonlyArray<{ readonly id: Hex; readonly other: Hex }>
}

/**
 * Pools of a pair, read from the side with fewer pools (a hub such as USDC may have thousands) and
 * remembered: a market serves one snapshot, whose requests ask for the same hub pairs often.
 */
const pairLookup = ({ refs }: PoolRefs): Market["poolsBetween"] => {
  const memo = new Map<string, ReadonlyArray<Hex>>()
  return (a, b) => {
    const key = a < b ? `${a}${b}` : `${b}${a}`
    const known = memo.get(key)
    if (known !== undefined) return known
    const [fewer, other] = refs(a).length <= refs(b).length ? [a, b] : [b, a]
    const ids = refs(fewer).flatMap((ref) => (ref.other === other ? [ref.id] : []))
    memo.set(key, ids)
    return ids
  }
}

// A search reads the same few pools thousands of times, and every request at a block the same ones: a
// plain map kept per snapshot spares hashing the id each time. A snapshot never changes, so neither does it.
const indexMarkets = new WeakMap<IndexState, Market>()

/** The indexed pools `token` is in. */
const indexedRefs = (state: IndexState, token: Hex) =>
  Option.getOrUndefined(HashMap.get(state.tokens, token))?.pools ?? []

const indexMarket = (state: IndexState): Market => {
  const known = indexMarkets.get(state)
  if (known !== undefined) return known
  const seen = new Map<Hex, RoutablePool | undefined>()
  const pool = (id: Hex) => {
    if (seen.has(id)) return seen.get(id)
    const found = Option.getOrUndefined(HashMap.get(state.pools, id))
    seen.set(id, found)
    return found
  }
  const market = { pool, poolsBetween: pairLookup({ refs: (token) => indexedRefs(state, token) }) }
  indexMarkets.set(state, market)
  return market
}

export const marketFromIndex = (state: IndexState, curves: ReadonlyArray<CurvePool> = []): Market => {
  const indexed = indexMarket(state)
  if (curves.length === 0) return indexed
  const curveById = new Map(curves.map((curve) => [curve.id, curve]))
  const curveRefs = new Map<Hex, Array<{ id: Hex; other: Hex }>>()
  for (const curve of curves) {
    curveRefs.set(curve.token, [...(curveRefs.get(curve.token) ?? []), { id: curve.id, other: curve.usdc }])
    curveRefs.set(curve.usdc, [...(curveRefs.get(curve.usdc) ?? []), { id: curve.id, other: curve.token }])
  }
  const refs = (token: Hex) => {
    const launched = curveRefs.get(token)
    const pools = indexedRefs(state, token)
    return launched === undefined ? pools : [...pools, ...launched]
  }
  const withCurves = pairLookup({ refs })
  return {
    pool: (id) => curveById.get(id) ?? indexed.pool(id),
    // A pair neither of whose tokens has a curve reads the index alone, as every other request does.
    poolsBetween: (a, b) => curveRefs.has(a) || curveRefs.has(b) ? withCurves(a, b) : indexed.poolsBetween(a, b)
  }
}

/** A market over a plain list of pools (tests, benchmarks, embedders with their own state). */
export const marketFromPools = (pools: ReadonlyArray<RoutablePool>): Market => {
  const byId = new Map(pools.map((pool) => [pool.id, pool]))
  const byToken = new Map<Hex, Array<{ id: Hex; other: Hex }>>()
  for (const pool of pools) {
    byToken.set(pool.token0, [...(byToken.get(pool.token0) ?? []), { id: pool.id, other: pool.token1 }])
    byToken.set(pool.token1, [...(byToken.get(pool.token1) ?? []), { id: pool.id, other: pool.token0 }])
  }
  return { pool: (id) => byId.get(id), poolsBetween: pairLookup({ refs: (token) => byToken.get(token) ?? [] }) }
}

/** Whether a pool can trade at all in its current state (a swap through it could move a unit). */
export const hasLiquidity = (pool: RoutablePool): boolean => {
  switch (pool.kind) {
    case "v2":
      return pool.reserve0 > 0n && pool.reserve1 > 0n
    case "v3":
    case "v4":
      return pool.sqrtPriceX96 > 0n && (pool.liquidity > 0n || pool.ticks.length > 0)
    case "curve":
      return pool.curve.tokenReserve > 0n && pool.curve.usdcReserve - pool.curve.virtualUsdc < pool.curve.graduationUsdc
  }
}

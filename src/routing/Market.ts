/**
 * What route search reads: pools by id and the pools of a token. Built over one index snapshot (plus
 * the launchpad curves, which the index does not hold as pools), so a whole search prices one block.
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { IndexState, PoolRef } from "../indexer/State.js"
import type { CurvePool, RoutablePool } from "../math/Hop.js"

export interface Market {
  readonly pool: (id: Hex) => RoutablePool | undefined
  /** Ids of the pools that trade `a` against `b`, in a stable order. */
  readonly poolsBetween: (a: Hex, b: Hex) => ReadonlyArray<Hex>
}

const pairKey = (a: Hex, b: Hex) => (a < b ? `${a}${b}` : `${b}${a}`)

/**
 * A token's pools grouped by the token on their other side, with each pool's position in the list. The
 * index only appends to a token's list (copying it, so older snapshots keep theirs; the refs are shared),
 * so one grouping serves every list of its lineage: a newer list extends it by its new pools, an older
 * one reads the positions below its length. A block thus costs a lookup what the block added to the
 * token, not the token's thousands of pools (a hub's).
 */
interface Lineage {
  /** The longest list seen. */
  refs: ReadonlyArray<PoolRef>
  readonly byOther: Map<Hex, { readonly ids: Array<Hex>; readonly at: Array<number> }>
}

// Keyed by a list's first ref, which every list of a lineage shares; gone with the last snapshot that holds it.
const lineages = new WeakMap<PoolRef, Lineage>()

const grow = (lineage: Lineage, refs: ReadonlyArray<PoolRef>, from: number) => {
  for (let i = from; i < refs.length; i++) {
    const ref = refs[i]!
    const group = lineage.byOther.get(ref.other)
    if (group === undefined) lineage.byOther.set(ref.other, { ids: [ref.id], at: [i] })
    else {
      group.ids.push(ref.id)
      group.at.push(i)
    }
  }
  lineage.refs = refs
}

/** Whether `refs` and the lineage agree up to the shorter of the two (a rollback's new pools would not). */
const sameLineage = (lineage: Lineage, refs: ReadonlyArray<PoolRef>) => {
  const last = Math.min(lineage.refs.length, refs.length) - 1
  return lineage.refs[last] === refs[last]
}

const lineageOf = (refs: ReadonlyArray<PoolRef>): Lineage => {
  const first = refs[0]!
  let lineage = lineages.get(first)
  if (lineage === undefined || !sameLineage(lineage, refs)) {
    lineage = { refs: [], byOther: new Map() }
    lineages.set(first, lineage)
    grow(lineage, refs, 0)
  } else if (refs.length > lineage.refs.length) grow(lineage, refs, lineage.refs.length)
  return lineage
}

/** Ids of the pools of `refs` (one token's list) against `other`, in the list's order. */
const poolsAgainst = (refs: ReadonlyArray<PoolRef>, other: Hex): ReadonlyArray<Hex> => {
  if (refs.length === 0) return []
  const group = lineageOf(refs).byOther.get(other)
  if (group === undefined) return []
  let count = group.at.length
  while (count > 0 && group.at[count - 1]! >= refs.length) count--
  return count === group.ids.length ? group.ids : group.ids.slice(0, count)
}

// A search reads the same few pools thousands of times, and every request at a block the same ones: a
// plain map kept per snapshot spares hashing the id each time. A snapshot never changes, so neither does it.
const indexMarkets = new WeakMap<IndexState, Market>()

/** The indexed pools `token` is in. */
const indexedRefs = (state: IndexState, token: Hex): ReadonlyArray<PoolRef> =>
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
  const poolsBetween = (a: Hex, b: Hex) => {
    // Grouped from the side with fewer pools: a hub such as USDC may have tens of thousands.
    const refsA = indexedRefs(state, a)
    const refsB = indexedRefs(state, b)
    return refsA.length <= refsB.length ? poolsAgainst(refsA, b) : poolsAgainst(refsB, a)
  }
  const market = { pool, poolsBetween }
  indexMarkets.set(state, market)
  return market
}

export const marketFromIndex = (state: IndexState, curves: ReadonlyArray<CurvePool> = []): Market => {
  const indexed = indexMarket(state)
  if (curves.length === 0) return indexed
  const curveById = new Map(curves.map((curve) => [curve.id, curve]))
  // A curve trades its token against USDC: one pair each, after the indexed pools of that pair.
  const curvesByPair = new Map<string, Array<Hex>>()
  for (const curve of curves) {
    const key = pairKey(curve.token, curve.usdc)
    curvesByPair.set(key, [...(curvesByPair.get(key) ?? []), curve.id])
  }
  return {
    pool: (id) => curveById.get(id) ?? indexed.pool(id),
    poolsBetween: (a, b) => {
      const launched = curvesByPair.get(pairKey(a, b))
      return launched === undefined ? indexed.poolsBetween(a, b) : [...indexed.poolsBetween(a, b), ...launched]
    }
  }
}

/** A market over a plain list of pools (tests, benchmarks, embedders with their own state). */
export const marketFromPools = (pools: ReadonlyArray<RoutablePool>): Market => {
  const byId = new Map(pools.map((pool) => [pool.id, pool]))
  const byPair = new Map<string, Array<Hex>>()
  for (const pool of pools) {
    const key = pairKey(pool.token0, pool.token1)
    const ids = byPair.get(key)
    if (ids === undefined) byPair.set(key, [pool.id])
    else ids.push(pool.id)
  }
  return { pool: (id) => byId.get(id), poolsBetween: (a, b) => byPair.get(pairKey(a, b)) ?? [] }
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

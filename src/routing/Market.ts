/**
 * What route search reads: pools by id and the pools of a token. Built over one index snapshot (plus
 * the launchpad curves, which the index does not hold as pools), so a whole search prices one block.
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../indexer/Events.js"
import type { IndexState } from "../indexer/State.js"
import type { CurvePool, RoutablePool } from "../math/Hop.js"

export interface Market {
  readonly pool: (id: Hex) => RoutablePool | undefined
  /** Ids of the pools that trade `token`, in a stable order. */
  readonly poolsOf: (token: Hex) => ReadonlyArray<Hex>
}

export const marketFromIndex = (state: IndexState, curves: ReadonlyArray<CurvePool> = []): Market => {
  const curveById = new Map(curves.map((curve) => [curve.id, curve]))
  const curvesOf = new Map<Hex, Array<Hex>>()
  for (const curve of curves) {
    for (const token of [curve.token0, curve.token1]) curvesOf.set(token, [...(curvesOf.get(token) ?? []), curve.id])
  }
  return {
    pool: (id) => curveById.get(id) ?? Option.getOrUndefined(HashMap.get(state.pools, id)),
    poolsOf: (token) => {
      const facts = Option.getOrUndefined(HashMap.get(state.tokens, token))
      return [...(facts?.pools.map((ref) => ref.id) ?? []), ...(curvesOf.get(token) ?? [])]
    }
  }
}

/** A market over a plain list of pools (tests, benchmarks, embedders with their own state). */
export const marketFromPools = (pools: ReadonlyArray<RoutablePool>): Market => {
  const byId = new Map(pools.map((pool) => [pool.id, pool]))
  const byToken = new Map<Hex, Array<Hex>>()
  for (const pool of pools) {
    for (const token of [pool.token0, pool.token1]) byToken.set(token, [...(byToken.get(token) ?? []), pool.id])
  }
  return { pool: (id) => byId.get(id), poolsOf: (token) => byToken.get(token) ?? [] }
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

/**
 * USD figures of one snapshot: token prices (`Prices.ts`) and, per token, the liquidity and 2% depth
 * of its pools. Prices are computed once per snapshot; a token's figures once per snapshot it is asked
 * about in; a pool's raw figures once per pool record (`PoolFigures.ts`).
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../indexer/Events.js"
import type { IndexState, Pool } from "../indexer/State.js"
import { poolFigures } from "./PoolFigures.js"
import { computePrices } from "./Prices.js"
import { usdOf } from "./Usd.js"

export interface PoolValue {
  readonly pool: Pool
  readonly liquidityMicro: bigint
  readonly depthMicro: bigint
}

export interface TokenFigures {
  readonly liquidityMicro: bigint
  readonly depthMicro: bigint
  /** Every pool with liquidity was priced with exact math on both sides. */
  readonly exact: boolean
  /** Deepest first. */
  readonly pools: ReadonlyArray<PoolValue>
}

export interface Valuation {
  readonly price: (token: Hex) => bigint | undefined
  readonly figures: (token: Hex) => TokenFigures
}

const valueOf = (pool: Pool, price: (token: Hex) => bigint | undefined): PoolValue & { readonly exact: boolean } => {
  const figures = poolFigures(pool)
  const price0 = price(pool.token0)
  const price1 = price(pool.token1)
  const side = (amount: bigint, p: bigint | undefined) => (p === undefined ? undefined : usdOf(amount, p))
  const liquidityMicro = (side(figures.amount0, price0) ?? 0n) + (side(figures.amount1, price1) ?? 0n)
  const depth0 = side(figures.depthIn0, price0)
  const depth1 = side(figures.depthIn1, price1)
  // The shallower side: depth to buy and depth to sell both matter to whoever has to exit.
  const depthMicro = depth0 !== undefined && depth1 !== undefined
    ? (depth0 < depth1 ? depth0 : depth1)
    : depth0 ?? depth1 ?? 0n
  const priced = price0 !== undefined && price1 !== undefined
  return { pool, liquidityMicro, depthMicro, exact: !figures.live || (figures.exact && priced) }
}

export const valuationOf = (state: IndexState, usdc: Hex): Valuation => {
  const prices = computePrices(state, usdc)
  const price = (token: Hex) => prices.get(token)
  const memo = new Map<Hex, TokenFigures>()
  const figures = (token: Hex): TokenFigures => {
    const known = memo.get(token)
    if (known !== undefined) return known
    const facts = Option.getOrUndefined(HashMap.get(state.tokens, token))
    let liquidityMicro = 0n
    let depthMicro = 0n
    let exact = true
    const pools: Array<PoolValue> = []
    for (const id of facts?.pools ?? []) {
      const pool = Option.getOrUndefined(HashMap.get(state.pools, id))
      if (pool === undefined) continue
      const value = valueOf(pool, price)
      liquidityMicro += value.liquidityMicro
      depthMicro += value.depthMicro
      exact &&= value.exact
      pools.push(value)
    }
    pools.sort((a, b) =>
      a.depthMicro !== b.depthMicro
        ? (b.depthMicro > a.depthMicro ? 1 : -1)
        : b.liquidityMicro > a.liquidityMicro
        ? 1
        : b.liquidityMicro < a.liquidityMicro
        ? -1
        : 0
    )
    const result: TokenFigures = { liquidityMicro, depthMicro, exact, pools }
    memo.set(token, result)
    return result
  }
  return { price, figures }
}

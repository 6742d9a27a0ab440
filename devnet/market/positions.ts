/**
 * Turns a pool spec's prices and positions into what concentrated-liquidity pools take: the opening
 * sqrt price and, per position, a tick range with the token amounts (or liquidity) it holds.
 */
import type { Address } from "viem"
import { fullRange, liquidityFor, rangeAround, sqrtPriceX96For } from "../priceMath.js"
import { type Market, sortPair, token, usdWorth } from "./context.js"
import type { PositionSpec } from "./data/pools.js"

export interface Sorted {
  readonly token0: Address
  readonly token1: Address
  readonly label0: string
  readonly label1: string
}

export const sorted = (market: Market, [a, b]: readonly [string, string]): Sorted => {
  const [token0] = sortPair(token(market, a).address, token(market, b).address)
  const [label0, label1] = token0 === token(market, a).address ? [a, b] : [b, a]
  return { token0, token1: token(market, label1).address, label0, label1 }
}

/** Opening price: equal dollar amounts of both tokens at their spec prices. */
export const openingPrice = (market: Market, pair: Sorted): bigint =>
  sqrtPriceX96For(usdWorth(market, pair.label0, 1_000_000), usdWorth(market, pair.label1, 1_000_000))

export interface Position {
  readonly ticks: readonly [number, number]
  readonly amount0: bigint
  readonly amount1: bigint
  readonly liquidity: bigint
}

export const position = (
  market: Market,
  pair: Sorted,
  sqrtPriceX96: bigint,
  spacing: number,
  spec: PositionSpec
): Position => {
  const ticks = spec.range === "full" ? fullRange(spacing) : rangeAround(sqrtPriceX96, spec.range, spacing)
  const amount0 = usdWorth(market, pair.label0, spec.usd / 2)
  const amount1 = usdWorth(market, pair.label1, spec.usd / 2)
  return { ticks, amount0, amount1, liquidity: liquidityFor(sqrtPriceX96, ticks, amount0, amount1) }
}

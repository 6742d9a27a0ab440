/**
 * USD prices of every token reachable from USDC, each through its deepest path: a widest-path search
 * (Dijkstra with "bottleneck" in place of "distance") where an edge's width is what it costs to move
 * that pool's price 2%, in USD. A token is priced by the mid price of the pool that ends its widest path.
 *
 * Any token next to a priced one gets a price, but only tokens whose path is at least
 * `MIN_SOURCE_DEPTH_MICRO` wide may price others: a dust pool can set its own token's price, never
 * spread a made-up price to the rest of the market.
 */
import { HashMap } from "effect"
import type { Hex } from "../indexer/Events.js"
import { NATIVE } from "../indexer/Sources.js"
import type { IndexState, Pool } from "../indexer/State.js"
import { Q192 } from "../math/FullMath.js"
import { poolFigures } from "./PoolFigures.js"
import { PRICE_SCALE, usdOf } from "./Usd.js"

/** $50 of 2% depth, in micro-dollars. */
export const MIN_SOURCE_DEPTH_MICRO = 50_000_000n
const UNBOUNDED = 1n << 255n

/** Price of the other token of `pool`, given the price of `token` (base units on both sides). */
const priceAcross = (pool: Pool, token: Hex, price: bigint): bigint | undefined => {
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

class MaxHeap {
  private readonly items: Array<readonly [bigint, Hex]> = []
  get size() {
    return this.items.length
  }
  push(item: readonly [bigint, Hex]) {
    const items = this.items
    items.push(item)
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent]![0] >= items[i]![0]) break
      ;[items[parent], items[i]] = [items[i]!, items[parent]!]
      i = parent
    }
  }
  pop(): readonly [bigint, Hex] {
    const items = this.items
    const top = items[0]!
    const last = items.pop()!
    if (items.length > 0) {
      items[0] = last
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        const right = left + 1
        let largest = i
        if (left < items.length && items[left]![0] > items[largest]![0]) largest = left
        if (right < items.length && items[right]![0] > items[largest]![0]) largest = right
        if (largest === i) break
        ;[items[largest], items[i]] = [items[i]!, items[largest]!]
        i = largest
      }
    }
    return top
  }
}

export const computePrices = (state: IndexState, usdc: Hex): ReadonlyMap<Hex, bigint> => {
  const adjacent = new Map<Hex, Array<Pool>>()
  for (const pool of HashMap.values(state.pools)) {
    for (const token of [pool.token0, pool.token1]) {
      const list = adjacent.get(token)
      if (list === undefined) adjacent.set(token, [pool])
      else list.push(pool)
    }
  }
  const prices = new Map<Hex, bigint>([[usdc, PRICE_SCALE], [NATIVE, PRICE_SCALE / 10n ** 12n]])
  const width = new Map<Hex, bigint>([[usdc, UNBOUNDED], [NATIVE, UNBOUNDED]])
  const heap = new MaxHeap()
  heap.push([UNBOUNDED, usdc])
  heap.push([UNBOUNDED, NATIVE])
  while (heap.size > 0) {
    const [reach, token] = heap.pop()
    if (reach < (width.get(token) ?? 0n) || reach < MIN_SOURCE_DEPTH_MICRO) continue
    const price = prices.get(token)!
    for (const pool of adjacent.get(token) ?? []) {
      const figures = poolFigures(pool)
      if (!figures.live) continue
      const other = pool.token0 === token ? pool.token1 : pool.token0
      const edge = usdOf(pool.token0 === token ? figures.depthIn0 : figures.depthIn1, price)
      const through = edge < reach ? edge : reach
      if (through <= (width.get(other) ?? -1n)) continue
      const otherPrice = priceAcross(pool, token, price)
      if (otherPrice === undefined || otherPrice === 0n) continue
      width.set(other, through)
      prices.set(other, otherPrice)
      heap.push([through, other])
    }
  }
  return prices
}

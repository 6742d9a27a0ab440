/**
 * A Uniswap v3 pool (on Uniswap's factory or the fork's) created, initialized and funded through the
 * factory's own NonfungiblePositionManager.
 */
import { Effect } from "effect"
import { type Address, maxUint256 } from "viem"
import { loadArtifact } from "../Artifacts.js"
import { approve, type Market, type SeededPool, token } from "./context.js"
import type { PositionSpec } from "./data/pools.js"
import { openingPrice, position, type Sorted, sorted } from "./positions.js"
import { registerPool } from "./registerPool.js"

export const v3TickSpacing: Readonly<Record<number, number>> = { 100: 1, 500: 10, 2500: 50, 3000: 60, 10000: 200 }

export const seedV3 = Effect.fn("seedV3")(function*(
  market: Market,
  pairLabels: readonly [string, string],
  fee: number,
  positions: ReadonlyArray<PositionSpec>,
  fork = false
) {
  const manager = {
    address: fork ? market.protocol.forkV3PositionManager : market.protocol.v3PositionManager,
    abi: loadArtifact("NonfungiblePositionManager").abi
  }
  const factory = {
    address: fork ? market.protocol.forkV3Factory : market.protocol.v3Factory,
    abi: loadArtifact("UniswapV3Factory").abi
  }
  const pair = sorted(market, pairLabels)
  const spacing = v3TickSpacing[fee]
  if (spacing === undefined) throw new Error(`no v3 fee tier ${fee}`)
  const sqrtPriceX96 = openingPrice(market, pair)
  yield* market.tx.write(market.deployer, manager, "createAndInitializePoolIfNecessary", [
    pair.token0,
    pair.token1,
    fee,
    sqrtPriceX96
  ])
  const address = yield* market.tx.read<Address>(factory, "getPool", [pair.token0, pair.token1, fee])
  yield* registerPool(market, [token(market, pair.label0), token(market, pair.label1)], address)
  yield* approve(market, market.deployer, pair.token0, manager.address)
  yield* approve(market, market.deployer, pair.token1, manager.address)
  for (const spec of positions) {
    const { ticks, amount0, amount1 } = position(market, pair, sqrtPriceX96, spacing, spec)
    yield* market.tx.write(market.deployer, manager, "mint", [{
      token0: pair.token0,
      token1: pair.token1,
      fee,
      tickLower: ticks[0],
      tickUpper: ticks[1],
      amount0Desired: amount0,
      amount1Desired: amount1,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: market.deployer,
      deadline: maxUint256
    }])
  }
  market.pools.push(v3PoolRecord(fork ? "fork-v3" : "v3", pairLabels, positions, pair, address, fee, spacing))
})

/** A seeded v3-family pool as the manifest lists it, its label `<venue prefix>:<pair>:<fee>`. */
export const v3PoolRecord = (
  prefix: string,
  pairLabels: readonly [string, string],
  positions: ReadonlyArray<PositionSpec>,
  pair: Sorted,
  address: Address,
  fee: number,
  tickSpacing: number
): SeededPool => ({
  label: `${prefix}:${pairLabels[0]}/${pairLabels[1]}:${fee}`,
  pair: pairLabels,
  usd: positions.reduce((sum, p) => sum + p.usd, 0),
  venue: "v3",
  address,
  id: address,
  token0: pair.token0,
  token1: pair.token1,
  fee,
  tickSpacing,
  hooks: null,
  key: null
})

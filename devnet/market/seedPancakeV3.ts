/**
 * A PancakeSwap v3 pool (devnet/pancakeVenue.ts) created by its factory, initialized, funded, and traded
 * through the devnet's PancakeV3Liquidity helper, which pays in the pool's own callbacks.
 */
import { Effect } from "effect"
import type { Address } from "viem"
import { loadArtifact } from "../Artifacts.js"
import { PANCAKE_V3_FEE_TIERS } from "../pancakeVenue.js"
import { approve, type Market, type SeededPool, token } from "./context.js"
import type { PositionSpec } from "./data/pools.js"
import { openingPrice, position, sorted } from "./positions.js"
import { registerPool } from "./registerPool.js"
import { v3PoolRecord } from "./seedV3.js"

const helperOf = (market: Market) => ({
  address: market.protocol.pancakeV3Liquidity,
  abi: loadArtifact("PancakeV3Liquidity").abi
})

export const seedPancakeV3 = Effect.fn("seedPancakeV3")(function*(
  market: Market,
  pairLabels: readonly [string, string],
  fee: number,
  positions: ReadonlyArray<PositionSpec>
) {
  const factory = { address: market.protocol.pancakeV3Factory, abi: loadArtifact("PancakeV3Factory").abi }
  const spacing = PANCAKE_V3_FEE_TIERS.find((tier) => tier.fee === fee)?.tickSpacing
  if (spacing === undefined) throw new Error(`no PancakeSwap v3 fee tier ${fee}`)
  const pair = sorted(market, pairLabels)
  const sqrtPriceX96 = openingPrice(market, pair)
  yield* market.tx.write(market.deployer, factory, "createPool", [pair.token0, pair.token1, fee])
  const address = yield* market.tx.read<Address>(factory, "getPool", [pair.token0, pair.token1, fee])
  yield* market.tx.write(market.deployer, { address, abi: loadArtifact("PancakeV3Pool").abi }, "initialize", [
    sqrtPriceX96
  ])
  yield* registerPool(market, [token(market, pair.label0), token(market, pair.label1)], address)
  const helper = helperOf(market)
  yield* approve(market, market.deployer, pair.token0, helper.address)
  yield* approve(market, market.deployer, pair.token1, helper.address)
  for (const spec of positions) {
    const { ticks, liquidity } = position(market, pair, sqrtPriceX96, spacing, spec)
    yield* market.tx.write(market.deployer, helper, "mint", [address, ticks[0], ticks[1], liquidity])
  }
  market.pools.push(v3PoolRecord("pancake-v3", pairLabels, positions, pair, address, fee, spacing))
})

/** An exact-input swap, as a wallet trading the pool straight would do it. */
export const swapPancakeV3 = Effect.fn("swapPancakeV3")(
  function*(market: Market, pool: SeededPool, trader: Address, tokenIn: Address, amountIn: bigint) {
    const helper = helperOf(market)
    yield* approve(market, trader, tokenIn, helper.address)
    const zeroForOne = tokenIn.toLowerCase() === pool.token0.toLowerCase()
    yield* market.tx.write(trader, helper, "swap", [pool.address, zeroForOne, amountIn, trader])
  }
)

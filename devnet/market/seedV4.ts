/**
 * A Uniswap v4 pool: initialized on the singleton PoolManager (with its hook, if any) and funded through
 * v4-core's PoolModifyLiquidityTest helper.
 */
import { Effect } from "effect"
import { encodeAbiParameters, keccak256, zeroAddress } from "viem"
import { DYNAMIC_FEE_FLAG } from "../../schema/Chain.js"
import { loadArtifact } from "../Artifacts.js"
import { approve, type Market, type PoolKey, token } from "./context.js"
import type { HookRole, PositionSpec } from "./data/pools.js"
import { openingPrice, position, sorted } from "./positions.js"
import { registerPool } from "./registerPool.js"

/** The fee value that marks a v4 pool's LP fee as set by its hook. */
const ZERO_SALT = `0x${"00".repeat(32)}`

export const poolIdOf = (key: PoolKey) =>
  keccak256(encodeAbiParameters(
    [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
    [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]
  ))

export const seedV4 = Effect.fn("seedV4")(function*(
  market: Market,
  pairLabels: readonly [string, string],
  fee: number | "dynamic",
  tickSpacing: number,
  hook: HookRole | undefined,
  positions: ReadonlyArray<PositionSpec>
) {
  const poolManager = { address: market.protocol.v4PoolManager, abi: loadArtifact("PoolManager").abi }
  const helper = { address: market.protocol.v4LiquidityHelper, abi: loadArtifact("PoolModifyLiquidityTest").abi }
  const pair = sorted(market, pairLabels)
  const key: PoolKey = {
    currency0: pair.token0,
    currency1: pair.token1,
    fee: fee === "dynamic" ? DYNAMIC_FEE_FLAG : fee,
    tickSpacing,
    hooks: hook === undefined ? zeroAddress : market.protocol[hook]
  }
  const sqrtPriceX96 = openingPrice(market, pair)
  yield* registerPool(market, [token(market, pair.label0), token(market, pair.label1)], poolManager.address)
  yield* market.tx.write(market.deployer, poolManager, "initialize", [key, sqrtPriceX96])
  yield* approve(market, market.deployer, pair.token0, helper.address)
  yield* approve(market, market.deployer, pair.token1, helper.address)
  for (const spec of positions) {
    const { ticks, liquidity } = position(market, pair, sqrtPriceX96, tickSpacing, spec)
    const params = { tickLower: ticks[0], tickUpper: ticks[1], liquidityDelta: liquidity, salt: ZERO_SALT }
    yield* market.tx.write(market.deployer, helper, "modifyLiquidity", [key, params, "0x"])
  }
  market.pools.push({
    label: `v4:${pairLabels[0]}/${pairLabels[1]}:${fee}${hook === undefined ? "" : `:${hook}`}`,
    pair: pairLabels,
    usd: positions.reduce((sum, p) => sum + p.usd, 0),
    venue: "v4",
    address: poolManager.address,
    id: poolIdOf(key),
    token0: pair.token0,
    token1: pair.token1,
    fee: fee === "dynamic" ? null : fee,
    tickSpacing,
    hooks: hook === undefined ? null : key.hooks,
    key
  })
})

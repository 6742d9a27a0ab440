/**
 * One exact-input swap on a seeded pool, the way a wallet would do it on each venue kind: straight
 * against the v2 pair, through Uniswap's v3 SwapRouter (PancakeSwap's pools through the devnet's helper),
 * through v4-core's PoolSwapTest.
 */
import { Effect } from "effect"
import { type Address, erc20Abi, maxUint256 } from "viem"
import { loadArtifact } from "../Artifacts.js"
import { approve, type Market, type SeededPool, transfer } from "./context.js"
import { swapPancakeV3 } from "./seedPancakeV3.js"
import { pairAbi } from "./seedV2.js"

/** The v4 and v3 price limits one step inside the protocol's bounds: "no limit" in either direction. */
export const MIN_SQRT_PRICE_LIMIT = 4295128739n + 1n
export const MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970342n - 1n

/** Uniswap v2's constant-product output after its 0.3 % fee. */
export const v2AmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)

const swapV2 = Effect.fn("swapV2")(
  function*(market: Market, pool: SeededPool, trader: Address, tokenIn: Address, amountIn: bigint) {
    const pair = { address: pool.address, abi: pairAbi }
    yield* transfer(market, trader, tokenIn, pool.address, amountIn)
    const [reserve0, reserve1] = yield* market.tx.read<readonly [bigint, bigint, number]>(pair, "getReserves")
    // Price what the pair actually received: fee-on-transfer tokens deliver less than was sent.
    const balance = yield* market.tx.read<bigint>({ address: tokenIn, abi: erc20Abi }, "balanceOf", [pool.address])
    const zeroIn = tokenIn.toLowerCase() === pool.token0.toLowerCase()
    const [reserveIn, reserveOut] = zeroIn ? [reserve0, reserve1] : [reserve1, reserve0]
    const out = v2AmountOut(balance - reserveIn, reserveIn, reserveOut)
    yield* market.tx.write(trader, pair, "swap", [zeroIn ? 0n : out, zeroIn ? out : 0n, trader, "0x"])
  }
)

const swapV3 = Effect.fn("swapV3")(
  function*(market: Market, pool: SeededPool, trader: Address, tokenIn: Address, amountIn: bigint) {
    if (pool.label.startsWith("pancake-v3:")) return yield* swapPancakeV3(market, pool, trader, tokenIn, amountIn)
    const router = pool.label.startsWith("fork-v3:") ? market.protocol.forkV3SwapRouter : market.protocol.v3SwapRouter
    yield* approve(market, trader, tokenIn, router)
    const tokenOut = tokenIn.toLowerCase() === pool.token0.toLowerCase() ? pool.token1 : pool.token0
    yield* market.tx.write(trader, { address: router, abi: loadArtifact("SwapRouter").abi }, "exactInputSingle", [{
      tokenIn,
      tokenOut,
      fee: pool.fee,
      recipient: trader,
      deadline: maxUint256,
      amountIn,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n
    }])
  }
)

const swapV4 = Effect.fn("swapV4")(
  function*(market: Market, pool: SeededPool, trader: Address, tokenIn: Address, amountIn: bigint) {
    const helper = market.protocol.v4SwapHelper
    if (pool.key === null) throw new Error(`${pool.label} has no pool key`)
    yield* approve(market, trader, tokenIn, helper)
    const zeroForOne = tokenIn.toLowerCase() === pool.token0.toLowerCase()
    yield* market.tx.write(trader, { address: helper, abi: loadArtifact("PoolSwapTest").abi }, "swap", [
      pool.key,
      {
        zeroForOne,
        // v4 sign convention: a negative amount is an exact input.
        amountSpecified: -amountIn,
        sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT
      },
      { takeClaims: false, settleUsingBurn: false },
      "0x"
    ])
  }
)

export const swapExactIn = (market: Market, pool: SeededPool, trader: Address, tokenIn: Address, amountIn: bigint) => {
  switch (pool.venue) {
    case "v2":
      return swapV2(market, pool, trader, tokenIn, amountIn)
    case "v3":
      return swapV3(market, pool, trader, tokenIn, amountIn)
    case "v4":
      return swapV4(market, pool, trader, tokenIn, amountIn)
  }
}

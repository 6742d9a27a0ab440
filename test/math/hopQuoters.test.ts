/**
 * `quoteHop` against the venues' own quoters (the v3 fork's too) on the shared devnet, at the block the index is at: every
 * seeded static-fee v3 and v4 pool, both directions, random sizes from a few units to a 30 % price move
 * (several ticks crossed). exactIn must equal QuoterV2 / V4Quoter to the unit; exactOut must be the
 * smallest input whose exact-input quote delivers at least the amount. Hooked pools that indexed state
 * cannot price answer `NeedsSimulation`.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "viem"
import { concentratedDepth } from "../../src/math/Depth.js"
import { quoteHop } from "../../src/math/Hop.js"
import type { ConcentratedPool } from "../../src/math/PoolState.js"
import { v3QuoterV2Abi, v4QuoterAbi } from "../support/abis.js"
import { contractAddress, poolByLabel, tokenAddress } from "../support/devnet.js"
import { addr, devnetIndex, expectExactQuotes, lower, sizes } from "./devnetIndex.js"

const { blockNumber, client, indexed, manifest } = devnetIndex()

/** What the venue's quoter says an exact input of `amountIn` yields; 0 when it reverts (too large). */
const quoterExactIn = async (label: string, tokenIn: string, amountIn: bigint): Promise<bigint> => {
  const seeded = poolByLabel(manifest, label)
  const pool = indexed(label) as ConcentratedPool
  const tokenOut = addr(tokenIn === pool.token0 ? pool.token1 : pool.token0)
  try {
    if (pool.kind === "v3") {
      const [out] = await client.readContract({
        // Each v3 venue's own QuoterV2, bound to its factory.
        address: contractAddress(manifest, label.startsWith("fork-v3:") ? "forkV3Quoter" : "v3Quoter"),
        abi: v3QuoterV2Abi,
        functionName: "quoteExactInputSingle",
        args: [{ tokenIn: addr(tokenIn), tokenOut, amountIn, fee: seeded.fee!, sqrtPriceLimitX96: 0n }],
        blockNumber: blockNumber()
      })
      return out
    }
    const [out] = await client.readContract({
      address: contractAddress(manifest, "v4Quoter"),
      abi: v4QuoterAbi,
      functionName: "quoteExactInputSingle",
      args: [{
        poolKey: {
          currency0: addr(pool.token0),
          currency1: addr(pool.token1),
          fee: seeded.fee ?? 0x800000,
          tickSpacing: seeded.tickSpacing!,
          hooks: (seeded.hooks ?? "0x0000000000000000000000000000000000000000") as Address
        },
        zeroForOne: tokenIn === pool.token0,
        exactAmount: amountIn,
        hookData: "0x"
      }],
      blockNumber: blockNumber()
    })
    return out
  } catch {
    return 0n
  }
}

describe("concentrated pools against the venues' quoters", () => {
  const labels = [
    "v3:WETH/USDC:500",
    "v3:WETH/USDC:3000",
    "v3:EURC/USDC:100",
    "v3:WBTC/USDC:3000",
    "fork-v3:WETH/USDC:2500",
    "v4:WETH/USDC:500",
    "v4:EURC/USDC:100",
    "v4:WBTC/USDC:3000"
  ]
  for (const [n, label] of labels.entries()) {
    it(`${label}: exactIn equals the quoter, exactOut is the least input that delivers`, async () => {
      const pool = indexed(label) as ConcentratedPool
      for (const tokenIn of [pool.token0, pool.token1]) {
        // Up to most of what the pool absorbs before its price moves 30 %: several ticks crossed.
        const zeroForOne = tokenIn === pool.token0
        const max = (concentratedDepth(pool, BigInt(pool.feePips), zeroForOne, 3000n) * 9n) / 10n
        for (const amount of sizes(n * 2 + 1, 6, 10n, max)) {
          await expectExactQuotes(pool, tokenIn, amount, (amountIn) => quoterExactIn(label, tokenIn, amountIn))
        }
      }
    })
  }

  it("hooked v4 pools whose swaps indexed state cannot price ask for a simulation", () => {
    const usdc = lower(tokenAddress(manifest, "USDC"))
    const dynamic = indexed("v4:ZAP/USDC:dynamic:dynamicFeeHook")
    const delta = indexed("v4:BLOOM/USDC:3000:swapFeeHook")
    expect(quoteHop({ pool: dynamic, tokenIn: usdc, side: "exactIn", amount: 10n ** 6n }))
      .toEqual({ _tag: "NeedsSimulation", reason: "dynamic_fee" })
    expect(quoteHop({ pool: delta, tokenIn: usdc, side: "exactOut", amount: 10n ** 6n }))
      .toEqual({ _tag: "NeedsSimulation", reason: "hook_delta" })
  })
})

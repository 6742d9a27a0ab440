/**
 * `quoteHop` on the PancakeSwap v3 venue's pools (PancakeSwap's own pool bytecode, made by a separate
 * pool deployer, indexed from its own Swap event) against real swaps of those pools at the block the index
 * is at: the devnet helper's `probe` swaps and reverts with the pool's balance changes, as a quoter does
 * (no PancakeSwap quoter ships on npm). exactIn must equal the swap's output to the unit; exactOut must be
 * the least input whose swap delivers the amount.
 */
import { describe, expect, it } from "@effect/vitest"
import { decodeErrorResult, encodeFunctionData } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { concentratedDepth } from "../../src/math/Depth.js"
import type { ConcentratedPool } from "../../src/math/PoolState.js"
import { contractAddress, poolByLabel } from "../support/devnet.js"
import { findRevertData } from "../support/revertData.js"
import { devnetIndex, expectExactQuotes, sizes } from "./devnetIndex.js"

const { blockNumber, client, holder, indexed, manifest } = devnetIndex()
const helperAbi = loadArtifact("PancakeV3Liquidity").abi

/** What the pool itself gives for an exact input of `amountIn` (0 when the swap reverts). */
const swapOut = async (label: string, zeroForOne: boolean, amountIn: bigint): Promise<bigint> => {
  const data = encodeFunctionData({
    abi: helperAbi,
    functionName: "probe",
    args: [poolByLabel(manifest, label).address, zeroForOne, amountIn]
  })
  const to = contractAddress(manifest, "pancakeV3Liquidity")
  const revert = await client.call({ account: holder.address, to, data, blockNumber: blockNumber() }).then(
    () => undefined,
    findRevertData
  )
  if (revert === undefined) throw new Error("probe did not revert")
  try {
    const { errorName, args } = decodeErrorResult({ abi: helperAbi, data: revert })
    if (errorName !== "Probed") return 0n
    const [amount0, amount1] = args as readonly [bigint, bigint]
    return -(zeroForOne ? amount1 : amount0)
  } catch {
    return 0n
  }
}

describe("PancakeSwap v3 pools against their own swaps", () => {
  const labels = ["pancake-v3:WETH/USDC:500", "pancake-v3:WBTC/USDC:2500"]
  for (const [n, label] of labels.entries()) {
    it(`${label}: exactIn equals the pool's swap, exactOut is the least input that delivers`, async () => {
      const pool = indexed(label) as ConcentratedPool
      expect(pool.kind).toBe("v3")
      expect(pool.venue).toBe("pancake-v3")
      for (const tokenIn of [pool.token0, pool.token1]) {
        const zeroForOne = tokenIn === pool.token0
        // Up to most of what the pool absorbs before its price moves 30 %.
        const max = (concentratedDepth(pool, BigInt(pool.feePips), zeroForOne, 3000n) * 9n) / 10n
        for (const amount of sizes(n * 2 + 11, 5, 10n, max)) {
          await expectExactQuotes(pool, tokenIn, amount, (amountIn) => swapOut(label, zeroForOne, amountIn))
        }
      }
    })
  }
})

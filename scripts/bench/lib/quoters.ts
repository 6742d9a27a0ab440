/**
 * Pricing route candidates the way a service without an index would: every hop of every candidate path
 * asked of the chain at one block (v3 through QuoterV2, v4 through V4Quoter, a v2 pair by reading its
 * reserves, the one call its price needs), hops of a path in turn, paths in parallel.
 */
import { type Address, createPublicClient, http, parseAbi } from "viem"
import { lowerAddress } from "../../../schema/Chain.js"
import { getAmountOut } from "../../../src/math/ConstantProduct.js"
import type { ConcentratedPool } from "../../../src/math/PoolState.js"
import type { Market } from "../../../src/routing/Market.js"
import type { Path } from "../../../src/routing/Path.js"
import { v3QuoterV2Abi, v4QuoterAbi } from "../../../test/support/abis.js"
import { hexOf } from "../../../test/support/hex.js"

const pairAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"])
const ZERO = lowerAddress("0x0000000000000000000000000000000000000000")

export const chainQuoter = (rpcUrl: string, contracts: Readonly<Record<string, string>>, market: Market) => {
  const client = createPublicClient({ transport: http(rpcUrl) })
  const a = (address: string) => address as Address

  const hopOut = async (poolId: string, tokenIn: string, amountIn: bigint, blockNumber: bigint): Promise<bigint> => {
    const pool = market.pool(hexOf(poolId))!
    const zeroForOne = tokenIn === pool.token0
    switch (pool.kind) {
      case "v2": {
        const [r0, r1] = await client.readContract({
          address: a(pool.id),
          abi: pairAbi,
          functionName: "getReserves",
          blockNumber
        })
        return zeroForOne
          ? getAmountOut(amountIn, r0, r1, BigInt(pool.feePips))
          : getAmountOut(amountIn, r1, r0, BigInt(pool.feePips))
      }
      case "v3": {
        const [out] = await client.readContract({
          address: a(contracts["v3Quoter"]!),
          abi: v3QuoterV2Abi,
          functionName: "quoteExactInputSingle",
          args: [{
            tokenIn: a(tokenIn),
            tokenOut: a(zeroForOne ? pool.token1 : pool.token0),
            amountIn,
            fee: pool.feePips,
            sqrtPriceLimitX96: 0n
          }],
          blockNumber
        })
        return out
      }
      case "v4": {
        const concentrated = pool as ConcentratedPool
        const [out] = await client.readContract({
          address: a(contracts["v4Quoter"]!),
          abi: v4QuoterAbi,
          functionName: "quoteExactInputSingle",
          args: [{
            poolKey: {
              currency0: a(pool.token0),
              currency1: a(pool.token1),
              fee: concentrated.dynamicFee ? 0x800000 : concentrated.feePips,
              tickSpacing: concentrated.tickSpacing,
              hooks: a(concentrated.hooks ?? ZERO)
            },
            zeroForOne,
            exactAmount: amountIn,
            hookData: "0x"
          }],
          blockNumber
        })
        return out
      }
      case "curve":
        throw new Error("the launchpad has no quoter")
    }
  }

  /** Output of each path for `amountIn` (null where the chain refused), priced on chain. */
  return (paths: ReadonlyArray<Path>, amountIn: bigint, blockNumber: bigint): Promise<Array<bigint | null>> =>
    Promise.all(paths.map(async (path) => {
      let amount = amountIn
      try {
        for (const hop of path.hops) amount = await hopOut(hop.poolId, hop.tokenIn, amount, blockNumber)
        return amount
      } catch {
        return null
      }
    }))
}

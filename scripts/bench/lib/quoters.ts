/**
 * Pricing route candidates the way a service without an index would: every hop of every candidate path
 * asked of the chain at one block, of each venue's own contracts and never of the index: a v3 pool of its
 * venue's QuoterV2 (a quoter built for another factory would quote another pool, or none), a PancakeSwap
 * v3 pool by a real swap of the pool that reverts with its balance changes (the devnet's
 * PancakeV3Liquidity `probe`: PancakeSwap ships no quoter on npm), a v4 pool of V4Quoter, a v2 pair from
 * its reserves and the fee its venue charges (read from the pair where each pair keeps its own). Hops of
 * a path in turn, paths in parallel. A venue this file cannot ask is named in the refusal, not skipped.
 */
import { type Address, createPublicClient, decodeErrorResult, encodeFunctionData, http, parseAbi } from "viem"
import { loadArtifact } from "../../../devnet/Artifacts.js"
import { lowerAddress } from "../../../schema/Chain.js"
import type { Manifest } from "../../../schema/Manifest.js"
import { getAmountOut } from "../../../src/math/ConstantProduct.js"
import type { ConcentratedPool } from "../../../src/math/PoolState.js"
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "../../../src/math/TickMath.js"
import type { Market } from "../../../src/routing/Market.js"
import type { Path } from "../../../src/routing/Path.js"
import { v3QuoterV2Abi, v4QuoterAbi } from "../../../test/support/abis.js"
import { hexOf } from "../../../test/support/hex.js"
import { findRevertData } from "../../../test/support/revertData.js"

const pairAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"])
const probeAbi = loadArtifact("PancakeV3Liquidity").abi
const ZERO = lowerAddress("0x0000000000000000000000000000000000000000")
const PIPS = 1_000_000n

/** Which of the devnet's contracts quotes each v3 venue's pools. */
const v3Askers: Readonly<Record<string, { readonly quoterV2: string } | { readonly probe: string }>> = {
  "uniswap-v3": { quoterV2: "v3Quoter" },
  "fork-v3": { quoterV2: "forkV3Quoter" },
  "pancake-v3": { probe: "pancakeV3Liquidity" }
}

/** The pool's quoter filled only part of the input (it answers for the part, as if it were the whole). */
export class Unfillable extends Error {}

/** A candidate the chain did not price: the venue asked and its contracts' (or this file's) reason. */
export interface Refused {
  readonly venue: string
  readonly reason: string
}

export const chainQuoter = (manifest: Manifest, market: Market) => {
  const client = createPublicClient({ transport: http(manifest.rpcUrl) })
  const a = (address: string) => address as Address
  const role = (name: string) => {
    const address = manifest.contracts[name]
    if (address === undefined) throw new Error(`the manifest has no contract ${name}`)
    return a(address)
  }
  const venueEntry = (id: string) => manifest.venues?.venues.find((venue) => venue.id === id)

  const v2FeePips = async (venue: string, pair: Address, blockNumber: bigint): Promise<bigint> => {
    const entry = venueEntry(venue)
    if (entry?.family !== "v2") throw new Error(`the manifest's venue file has no v2 venue ${venue}`)
    if ("fixed" in entry.fee) return BigInt(entry.fee.fixed)
    const { getter, denominator } = entry.fee.perPair
    const name = getter.slice(0, -2)
    const abi = [{ type: "function", name, stateMutability: "view", inputs: [], outputs: [{ type: "uint256" }] }]
    const fee = await client.readContract({ address: pair, abi, functionName: name, blockNumber }) as bigint
    if ((fee * PIPS) % BigInt(denominator) !== 0n) {
      throw new Error(`${venue}: fee ${fee}/${denominator} is not whole pips`)
    }
    return (fee * PIPS) / BigInt(denominator)
  }

  const probe = async (helper: Address, pool: Address, zeroForOne: boolean, amountIn: bigint, blockNumber: bigint) => {
    const data = encodeFunctionData({ abi: probeAbi, functionName: "probe", args: [pool, zeroForOne, amountIn] })
    const revert = await client.call({ to: helper, data, blockNumber }).then(() => undefined, findRevertData)
    if (revert === undefined) throw new Error("the probe did not revert with the swap's amounts")
    const { args, errorName } = decodeErrorResult({ abi: probeAbi, data: revert })
    if (errorName !== "Probed") throw new Error(`the pool refused the swap (${errorName})`)
    const [amount0, amount1] = args as readonly [bigint, bigint]
    if ((zeroForOne ? amount0 : amount1) !== amountIn) throw new Unfillable()
    return -(zeroForOne ? amount1 : amount0)
  }

  const hopOut = async (poolId: string, tokenIn: string, amountIn: bigint, blockNumber: bigint): Promise<bigint> => {
    const pool = market.pool(hexOf(poolId))!
    const zeroForOne = tokenIn === pool.token0
    switch (pool.kind) {
      case "v2": {
        const [[r0, r1], feePips] = await Promise.all([
          client.readContract({ address: a(pool.id), abi: pairAbi, functionName: "getReserves", blockNumber }),
          v2FeePips(pool.venue, a(pool.id), blockNumber)
        ])
        return zeroForOne ? getAmountOut(amountIn, r0, r1, feePips) : getAmountOut(amountIn, r1, r0, feePips)
      }
      case "v3": {
        const asker = v3Askers[pool.venue]
        if (asker === undefined) throw new Error("no quoter of this venue is known to the bench")
        if ("probe" in asker) return probe(role(asker.probe), a(pool.id), zeroForOne, amountIn, blockNumber)
        const [out, sqrtPriceAfter] = await client.readContract({
          address: role(asker.quoterV2),
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
        // QuoterV2 swaps to the price bound without a limit: there the pool ran dry before the input did.
        if (sqrtPriceAfter === (zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n)) throw new Unfillable()
        return out
      }
      case "v4": {
        const concentrated = pool as ConcentratedPool
        const [out] = await client.readContract({
          address: role("v4Quoter"),
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

  /** Output of each path for `amountIn`, priced on chain; "unfillable" when a pool cannot take a hop's
   * whole input; or the first hop the chain did not price. */
  return (
    paths: ReadonlyArray<Path>,
    amountIn: bigint,
    blockNumber: bigint
  ): Promise<Array<bigint | "unfillable" | Refused>> =>
    Promise.all(paths.map(async (path) => {
      let amount = amountIn
      for (const hop of path.hops) {
        try {
          amount = await hopOut(hop.poolId, hop.tokenIn, amount, blockNumber)
        } catch (error) {
          if (error instanceof Unfillable) return "unfillable"
          const reason = error instanceof Error ? error.message.split("\n")[0]! : String(error)
          return { venue: hop.venue, reason }
        }
      }
      return amount
    }))
}

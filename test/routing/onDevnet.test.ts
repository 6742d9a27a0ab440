/**
 * Route search over the shared devnet's index, checked against the chain: a large USDC→WETH order
 * splits, beats the best single path and is within 1 bp of a 1 % brute-force grid; executing the plan's
 * swaps one after another on the real pools (v2 pair, v3 SwapRouter, v4 PoolSwapTest) in one
 * `eth_simulateV1` block delivers exactly the quoted output; exactOut delivers exactly the amount;
 * a pair without USDC comes out as a graph whose edges chain token to token.
 * One file, longer than most, because every case prices from one synced index of the shared devnet.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { type Address, encodeFunctionData, type Hex, maxUint256, parseAbi, parseEther } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { PlanGraph, PlanLeg } from "../../schema/Route.js"
import type { IndexState } from "../../src/indexer/State.js"
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "../../src/math/TickMath.js"
import { findRoute, type RouteRequest } from "../../src/routing/FindRoute.js"
import { defaultHopGas, defaultPathGas } from "../../src/routing/Gas.js"
import { type Market, marketFromIndex } from "../../src/routing/Market.js"
import type { Plan } from "../../src/routing/Plan.js"
import { planShape } from "../../src/routing/PlanShape.js"
import { usdcAbi } from "../support/abis.js"
import { clientsFor, contractAddress, manifestAccount, sharedManifest, tokenAddress } from "../support/devnet.js"
import { addressOf, hexOf } from "../support/hex.js"
import { indexRuntime, synced } from "../support/services.js"
import { bruteForce } from "./fixtures.js"

const manifest = sharedManifest()
const runtime = indexRuntime(manifest)
const client = clientsFor(manifest).public
const holder = manifestAccount(manifest, 6)
let state: IndexState
let market: Market

beforeAll(async () => {
  state = await runtime.runPromise(Effect.map(synced, (snapshot) => snapshot.state))
  market = marketFromIndex(state)
})
afterAll(() => runtime.dispose())

const lower = (address: string) => addressOf(address)
const USDC = lower(tokenAddress(manifest, "USDC"))
const WETH = lower(tokenAddress(manifest, "WETH"))
const WBTC = lower(tokenAddress(manifest, "WBTC"))
const hubs = [
  USDC,
  ...manifest.tokenList.tokens.filter((t) => (t.tags ?? []).includes("hub")).map((t) => lower(t.address))
]
const E6 = 10n ** 6n
const E18 = 10n ** 18n

const request = (
  tokenIn: string,
  tokenOut: string,
  side: RouteRequest["side"],
  amount: bigint,
  maxSplits = 4
): RouteRequest => ({
  market,
  tokenIn: hexOf(tokenIn),
  tokenOut: hexOf(tokenOut),
  side,
  amount,
  hubs,
  maxHops: 2,
  maxSplits,
  // Uniswap's own venues: executeOnChain below swaps through their entry points, not the forks'.
  allowVenue: (venue) => venue.startsWith("uniswap-") || venue === "launchpad",
  gas: {
    perHop: defaultHopGas,
    perPath: defaultPathGas,
    gasPriceWei: 20n * 10n ** 9n,
    tokenPrice: side === "exactIn" ? { tokenRaw: E18, usdcRaw: 3000n * E6 } : { tokenRaw: E6, usdcRaw: E6 }
  }
})

const erc20 = parseAbi([
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function balanceOf(address) view returns (uint256)"
])
const pairAbi = parseAbi(["function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)"])
const call = (to: string, data: Hex) => ({ to: to as Address, data })

/** Every swap of the plan, in its order, from the holder through each venue's own entry point. */
const swapCalls = (plan: Plan) =>
  plan.legs.flatMap((leg) =>
    leg.fills.flatMap((fill) => {
      const pool = market.pool(fill.hop.poolId)!
      const zeroForOne = fill.hop.tokenIn === pool.token0
      const approve = (spender: string) =>
        call(
          fill.hop.tokenIn,
          encodeFunctionData({ abi: erc20, functionName: "approve", args: [spender as Address, maxUint256] })
        )
      // exactOut fills are exact outputs: each pool delivers exactly the fill's output for what it charges.
      const exactOut = plan.side === "exactOut"
      switch (pool.kind) {
        case "v2": {
          // Untaxed tokens: the pair's output for what it receives is the fill's output.
          const out = fill.amountOut
          return [
            call(
              fill.hop.tokenIn,
              encodeFunctionData({ abi: erc20, functionName: "transfer", args: [pool.id as Address, fill.amountIn] })
            ),
            call(
              pool.id,
              encodeFunctionData({
                abi: pairAbi,
                functionName: "swap",
                args: [zeroForOne ? 0n : out, zeroForOne ? out : 0n, holder.address, "0x"]
              })
            )
          ]
        }
        case "v3": {
          const router = contractAddress(manifest, "v3SwapRouter")
          return [
            approve(router),
            call(
              router,
              encodeFunctionData({
                abi: loadArtifact("SwapRouter").abi,
                functionName: exactOut ? "exactOutputSingle" : "exactInputSingle",
                args: [{
                  tokenIn: fill.hop.tokenIn,
                  tokenOut: fill.hop.tokenOut,
                  fee: pool.feePips,
                  recipient: holder.address,
                  deadline: 2n ** 40n,
                  ...(exactOut
                    ? { amountOut: fill.amountOut, amountInMaximum: fill.amountIn }
                    : { amountIn: fill.amountIn, amountOutMinimum: 0n }),
                  sqrtPriceLimitX96: 0n
                }]
              })
            )
          ]
        }
        case "v4": {
          const helper = contractAddress(manifest, "v4SwapHelper")
          return [
            approve(helper),
            call(
              helper,
              encodeFunctionData({
                abi: loadArtifact("PoolSwapTest").abi,
                functionName: "swap",
                args: [
                  {
                    currency0: pool.token0,
                    currency1: pool.token1,
                    fee: pool.dynamicFee ? 0x800000 : pool.feePips,
                    tickSpacing: pool.tickSpacing,
                    hooks: pool.hooks ?? "0x0000000000000000000000000000000000000000"
                  },
                  {
                    zeroForOne,
                    amountSpecified: exactOut ? fill.amountOut : -fill.amountIn,
                    sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n
                  },
                  { takeClaims: false, settleUsingBurn: false },
                  "0x"
                ]
              })
            )
          ]
        }
        case "curve":
          throw new Error("no curve on these routes")
      }
    })
  )

/** Runs the plan's swaps at the index's block; the holder's change in the output token. */
const executeOnChain = async (plan: Plan): Promise<bigint> => {
  const balance = call(
    plan.tokenOut,
    encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [holder.address] })
  )
  const funding = plan.tokenIn === USDC
    ? [call(USDC, encodeFunctionData({ abi: usdcAbi, functionName: "deposit" }))]
    : []
  const { results } = await client.simulateCalls({
    account: holder.address,
    blockNumber: BigInt(state.block),
    // Native value to deposit for USDC: a large order needs more than the holder's bag.
    stateOverrides: [{ address: holder.address, balance: parseEther("100000000") }],
    calls: [
      ...funding.map((c) => ({ ...c, value: plan.tokenIn === USDC ? plan.amountIn * 10n ** 12n : 0n })),
      balance,
      ...swapCalls(plan),
      balance
    ]
  })
  const failed = results.find((result) => result.status !== "success")
  if (failed !== undefined) throw new Error(`simulated swap failed: ${failed.error?.message}`)
  return BigInt(results[results.length - 1]!.data) - BigInt(results[funding.length]!.data)
}

describe("route search on the devnet's index", () => {
  it("a large USDC→WETH order splits, beats the best single path, is within 1 bp of a 1 % grid, and executes as quoted", async () => {
    const result = findRoute(request(USDC, WETH, "exactIn", 2_000_000n * E6, 3))
    const best = result.best!
    expect(best.legs.length).toBeGreaterThan(1)
    expect(best.amountOut).toBeGreaterThan(result.bestSingle!.amountOut)
    expect(best.legs.length).toBeLessThanOrEqual(3)
    // Hooked pools whose fee or deltas come from the hook are candidates that need a simulation.
    expect(result.candidates.some((c) => c.run._tag === "NeedsSimulation")).toBe(true)
    const paths = best.legs.map((leg) => leg.path)
    const grid = bruteForce(market, paths, "exactIn", best.amountIn, 100)
    expect(best.amountOut).toBeGreaterThanOrEqual(grid.value - grid.value / 10_000n)
    expect(await executeOnChain(best)).toBe(best.amountOut)

    const shape = planShape(best, {
      usdc: USDC,
      token: (address) => ({ symbol: address === USDC ? "USDC" : "WETH", decimals: address === USDC ? 6 : 18 }),
      pool: market.pool
    })
    expect(shape.type).toBe("split")
    expect(shape.legs.reduce((sum, leg) => sum + leg.shareBps, 0)).toBe(10_000)
    for (const leg of shape.legs) Schema.decodeUnknownSync(PlanLeg)(leg)
  })

  it("exactOut: the plan buys exactly the amount, each pool paid what it charges for its exact output", async () => {
    const want = 150n * E18
    const best = findRoute(request(USDC, WETH, "exactOut", want)).best!
    expect(best.amountOut).toBe(want)
    expect(best.legs.reduce((sum, leg) => sum + leg.amountOut, 0n)).toBe(want)
    expect(await executeOnChain(best)).toBe(want)
  })

  it("WETH→WBTC, neither side USDC: a graph whose edges chain token to token and execute as quoted", async () => {
    const best = findRoute(request(WETH, WBTC, "exactIn", 10n * E18)).best!
    const shape = planShape(best, {
      usdc: USDC,
      token: () => ({ symbol: "X", decimals: 18 }),
      pool: market.pool
    })
    expect(shape.type).toBe("graph")
    expect(shape.legs).toEqual([])
    const graph = Schema.decodeUnknownSync(PlanGraph)(shape.graph)
    const paths = [...new Set(graph.edges.map((edge) => edge.path))]
    let total = 0n
    for (const edges of paths.map((path) => graph.edges.filter((edge) => edge.path === path))) {
      expect(lower(edges[0]!.tokenInAddress)).toBe(WETH)
      expect(lower(edges[edges.length - 1]!.tokenOutAddress)).toBe(WBTC)
      for (let i = 1; i < edges.length; i++) {
        expect(edges[i]!.tokenInAddress).toBe(edges[i - 1]!.tokenOutAddress)
        expect(edges[i]!.amountInRaw).toBe(edges[i - 1]!.amountOutRaw)
      }
      total += BigInt(edges[edges.length - 1]!.amountOutRaw)
    }
    expect(total).toBe(best.amountOut)
    expect(await executeOnChain(best)).toBe(best.amountOut)
  })
})

/**
 * `quoteHop` against the chain on the shared devnet, at the block the index is at: every seeded v3 and
 * v4 pool against the venues' own quoters, v2 pairs against the pair's K check and the launchpad curve
 * against the launchpad itself (both through `eth_simulateV1`), in both directions over random sizes
 * from a few units to a large share of the pool. exactIn must equal the chain to the unit; exactOut
 * must be the smallest input that delivers at least the amount.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, HashMap, Option } from "effect"
import { type Address, encodeFunctionData, type Hex, parseAbi } from "viem"
import type { ConcentratedPool, IndexState, Pool } from "../../src/indexer/State.js"
import { concentratedDepth } from "../../src/math/Depth.js"
import { type CurvePool, quoteHop } from "../../src/math/Hop.js"
import { indexRuntime, synced } from "../indexer/stack.js"
import { launchpadAbi, v2PairAbi } from "../support/abis.js"
import {
  clientsFor,
  contractAddress,
  manifestAccount,
  poolByLabel,
  sharedManifest,
  tokenAddress
} from "../support/devnet.js"

const manifest = sharedManifest()
const runtime = indexRuntime(manifest)
const client = clientsFor(manifest).public
const holder = manifestAccount(manifest, 7)
let state: IndexState
let blockNumber: bigint

beforeAll(async () => {
  state = await runtime.runPromise(Effect.map(synced, (snapshot) => snapshot.state))
  blockNumber = BigInt(state.block)
})
afterAll(() => runtime.dispose())

const lower = (address: string) => address.toLowerCase() as Hex
/** The index keeps addresses as plain lower-case strings. */
const addr = (address: string) => address as Address
const indexed = (label: string): Pool => {
  const pool = Option.getOrUndefined(HashMap.get(state.pools, lower(poolByLabel(manifest, label).id)))
  if (pool === undefined) throw new Error(`${label} is not indexed`)
  return pool
}

/** Deterministic log-uniform sizes between `min` and `max`, so a failure reproduces. */
const sizes = (seed: number, count: number, min: bigint, max: bigint): ReadonlyArray<bigint> => {
  let s = seed
  const span = Math.log(Number(max) / Number(min))
  return Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    const scaled = BigInt(Math.floor(Math.exp((s / 2 ** 31) * span) * 1e6))
    return (min * scaled) / 1_000_000n + BigInt(s % 1000)
  })
}

const quoterV2 = parseAbi([
  "struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }",
  "function quoteExactInputSingle(QuoteExactInputSingleParams params) view returns (uint256 amountOut, uint160, uint32, uint256)"
])
const v4Quoter = parseAbi([
  "struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }",
  "struct QuoteExactSingleParams { PoolKey poolKey; bool zeroForOne; uint128 exactAmount; bytes hookData; }",
  "function quoteExactInputSingle(QuoteExactSingleParams params) view returns (uint256 amountOut, uint256 gasEstimate)"
])

/** What the venue's quoter says an exact input of `amountIn` yields; 0 when it reverts (too large). */
const quoterExactIn = async (label: string, tokenIn: string, amountIn: bigint): Promise<bigint> => {
  const seeded = poolByLabel(manifest, label)
  const pool = indexed(label) as ConcentratedPool
  const tokenOut = addr(tokenIn === pool.token0 ? pool.token1 : pool.token0)
  try {
    if (pool.kind === "v3") {
      const [out] = await client.readContract({
        address: contractAddress(manifest, "v3Quoter"),
        abi: quoterV2,
        functionName: "quoteExactInputSingle",
        args: [{ tokenIn: addr(tokenIn), tokenOut, amountIn, fee: seeded.fee!, sqrtPriceLimitX96: 0n }],
        blockNumber
      })
      return out
    }
    const [out] = await client.readContract({
      address: contractAddress(manifest, "v4Quoter"),
      abi: v4Quoter,
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
      blockNumber
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
          const exactIn = quoteHop({ pool, tokenIn, side: "exactIn", amount })
          expect(exactIn._tag).toBe("Quoted")
          if (exactIn._tag !== "Quoted") continue
          expect(exactIn.amountOut).toBe(await quoterExactIn(label, tokenIn, amount))
          if (exactIn.amountOut < 2n) continue
          const target = exactIn.amountOut / 2n + 1n
          const exactOut = quoteHop({ pool, tokenIn, side: "exactOut", amount: target })
          if (exactOut._tag !== "Quoted") throw new Error(`exactOut not quoted: ${exactOut._tag}`)
          expect(exactOut.amountOut).toBeGreaterThanOrEqual(target)
          expect(await quoterExactIn(label, tokenIn, exactOut.amountIn)).toBe(exactOut.amountOut)
          expect(await quoterExactIn(label, tokenIn, exactOut.amountIn - 1n)).toBeLessThan(target)
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

const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)"
])

/** Runs calls from the holder in one `eth_simulateV1` block at the index's block; the statuses and the last return data. */
const simulate = async (calls: ReadonlyArray<{ to: Address; data: Hex }>) => {
  const { results } = await client.simulateCalls({ account: holder.address, calls: [...calls], blockNumber })
  return results
}

describe("v2 pairs against the pair's own K check", () => {
  for (const [n, label] of ["v2:WETH/USDC", "v2:DEGEN/USDC", "v2:EURC/USDC"].entries()) {
    it(`${label}: the quoted output passes, one unit more fails; the exactOut input is the least that passes`, async () => {
      const pool = indexed(label)
      if (pool.kind !== "v2") throw new Error("not a v2 pool")
      for (const tokenIn of [pool.token0, pool.token1]) {
        const zeroForOne = tokenIn === pool.token0
        const reserveIn = zeroForOne ? pool.reserve0 : pool.reserve1
        const swapData = (out: bigint) =>
          encodeFunctionData({
            abi: v2PairAbi,
            functionName: "swap",
            args: [zeroForOne ? 0n : out, zeroForOne ? out : 0n, holder.address, "0x"]
          })
        const trySwap = async (amountIn: bigint, out: bigint) => {
          const results = await simulate([
            {
              to: addr(tokenIn),
              data: encodeFunctionData({ abi: erc20, functionName: "transfer", args: [addr(pool.id), amountIn] })
            },
            { to: addr(pool.id), data: swapData(out) }
          ])
          return results.every((result) => result.status === "success")
        }
        const balance = await client.readContract({
          address: addr(tokenIn),
          abi: erc20,
          functionName: "balanceOf",
          args: [holder.address],
          blockNumber
        })
        const max = reserveIn / 4n < balance ? reserveIn / 4n : balance
        for (const amount of sizes(n + 11, 3, 1000n, max)) {
          const quote = quoteHop({ pool, tokenIn, side: "exactIn", amount })
          if (quote._tag !== "Quoted") throw new Error(quote._tag)
          // A dust input worth less than one unit of the other side: the pair refuses a zero output.
          if (quote.amountOut === 0n) continue
          expect(await trySwap(amount, quote.amountOut)).toBe(true)
          expect(await trySwap(amount, quote.amountOut + 1n)).toBe(false)
          const out = quote.amountOut / 3n + 7n
          const exactOut = quoteHop({ pool, tokenIn, side: "exactOut", amount: out })
          if (exactOut._tag !== "Quoted") throw new Error(exactOut._tag)
          expect(await trySwap(exactOut.amountIn, out)).toBe(true)
          expect(await trySwap(exactOut.amountIn - 1n, out)).toBe(false)
        }
      }
    })
  }
})

describe("the launchpad curve against the launchpad", () => {
  const curveAbi = parseAbi([
    "function virtualUsdc() view returns (uint256)",
    "function graduationUsdc() view returns (uint256)"
  ])

  it("buy and sell, exactIn and exactOut, round as the contract does", async () => {
    const launchpad = contractAddress(manifest, "launchpad")
    const usdc = lower(tokenAddress(manifest, "USDC"))
    const token = lower(tokenAddress(manifest, "LAUNCH_CURVE"))
    const read = <T>(functionName: string, args: ReadonlyArray<unknown> = []) =>
      client.readContract({
        address: launchpad,
        abi: [...launchpadAbi, ...curveAbi],
        functionName,
        args,
        blockNumber
      } as never) as Promise<T>
    const [usdcReserve, tokenReserve] = await read<readonly [bigint, bigint]>("curveReserves", [token])
    const pool: CurvePool = {
      kind: "curve",
      id: token,
      venue: "launchpad",
      token0: usdc,
      token1: token,
      usdc,
      token,
      curve: {
        usdcReserve,
        tokenReserve,
        virtualUsdc: await read<bigint>("virtualUsdc"),
        graduationUsdc: await read<bigint>("graduationUsdc")
      }
    }
    const call = (to: Address, data: Hex) => ({ to, data })
    const approve = (asset: Address, amount: bigint) =>
      call(asset, encodeFunctionData({ abi: erc20, functionName: "approve", args: [launchpad, amount] }))
    const buy = (usdcIn: bigint, min: bigint) =>
      call(launchpad, encodeFunctionData({ abi: launchpadAbi, functionName: "buy", args: [token, usdcIn, min] }))
    const sell = (tokensIn: bigint, min: bigint) =>
      call(launchpad, encodeFunctionData({ abi: launchpadAbi, functionName: "sell", args: [token, tokensIn, min] }))
    const succeeds = async (calls: ReadonlyArray<{ to: Address; data: Hex }>) =>
      (await simulate(calls)).every((result) => result.status === "success")

    for (const usdcIn of sizes(5, 4, 1000n, 2_000n * 10n ** 6n)) {
      const bought = quoteHop({ pool, tokenIn: usdc, side: "exactIn", amount: usdcIn })
      if (bought._tag !== "Quoted") throw new Error(bought._tag)
      expect(await succeeds([approve(usdc, usdcIn), buy(usdcIn, bought.amountOut)])).toBe(true)
      expect(await succeeds([approve(usdc, usdcIn), buy(usdcIn, bought.amountOut + 1n)])).toBe(false)
      const least = quoteHop({ pool, tokenIn: usdc, side: "exactOut", amount: bought.amountOut })
      if (least._tag !== "Quoted") throw new Error(least._tag)
      expect(await succeeds([approve(usdc, usdcIn), buy(least.amountIn - 1n, bought.amountOut)])).toBe(false)

      // Sell back part of what was bought, against the curve the buy left.
      const after = bought.poolAfter
      const tokensIn = bought.amountOut / 3n
      const sold = quoteHop({ pool: after, tokenIn: token, side: "exactIn", amount: tokensIn })
      if (sold._tag !== "Quoted") throw new Error(sold._tag)
      const buyThenSell = (min: bigint, tokens: bigint) => [
        approve(usdc, usdcIn),
        buy(usdcIn, 0n),
        approve(token, tokens),
        sell(tokens, min)
      ]
      expect(await succeeds(buyThenSell(sold.amountOut, tokensIn))).toBe(true)
      expect(await succeeds(buyThenSell(sold.amountOut + 1n, tokensIn))).toBe(false)
      const leastSell = quoteHop({ pool: after, tokenIn: token, side: "exactOut", amount: sold.amountOut })
      if (leastSell._tag !== "Quoted") throw new Error(leastSell._tag)
      expect(leastSell.amountIn).toBeLessThanOrEqual(tokensIn)
      expect(await succeeds(buyThenSell(sold.amountOut, leastSell.amountIn))).toBe(true)
      expect(await succeeds(buyThenSell(sold.amountOut, leastSell.amountIn - 1n))).toBe(false)
    }
  })
})

describe("fee-on-transfer: the taxed token's v2 pair", () => {
  it("a taxed sell is priced on what reaches the pair, a taxed buy on what reaches the wallet", async () => {
    const pool = indexed("v2:TAX/USDC")
    const tax = lower(tokenAddress(manifest, "TAX"))
    const usdc = lower(tokenAddress(manifest, "USDC"))
    const taxAbi = parseAbi([
      "function buyTaxBps() view returns (uint16)",
      "function sellTaxBps() view returns (uint16)"
    ])
    const buyTaxBps = BigInt(
      await client.readContract({ address: tax, abi: taxAbi, functionName: "buyTaxBps", blockNumber })
    )
    const sellTaxBps = BigInt(
      await client.readContract({ address: tax, abi: taxAbi, functionName: "sellTaxBps", blockNumber })
    )
    expect(buyTaxBps).toBeGreaterThan(0n)
    const outs = (tokenOut: Hex, out: bigint) => tokenOut === pool.token0 ? [out, 0n] as const : [0n, out] as const
    const swapThenBalance = (tokenIn: Hex, amountIn: bigint, tokenOut: Hex, out: bigint) =>
      simulate([
        {
          to: addr(tokenIn),
          data: encodeFunctionData({ abi: erc20, functionName: "transfer", args: [addr(pool.id), amountIn] })
        },
        {
          to: addr(pool.id),
          data: encodeFunctionData({
            abi: v2PairAbi,
            functionName: "swap",
            args: [...outs(tokenOut, out), holder.address, "0x"]
          })
        },
        { to: tokenOut, data: encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [holder.address] }) }
      ])
    const balanceBefore = (token: Hex) =>
      client.readContract({
        address: token,
        abi: erc20,
        functionName: "balanceOf",
        args: [holder.address],
        blockNumber
      })

    for (const tokensIn of [10n ** 18n, 12_345n * 10n ** 18n, 98_765_432_109_876_543_210n]) {
      const sell = quoteHop({ pool, tokenIn: tax, side: "exactIn", amount: tokensIn, inputTaxBps: sellTaxBps })
      if (sell._tag !== "Quoted") throw new Error(sell._tag)
      const ok = await swapThenBalance(tax, tokensIn, usdc, sell.amountOut)
      expect(ok.every((result) => result.status === "success")).toBe(true)
      const tooMuch = await swapThenBalance(tax, tokensIn, usdc, sell.amountOut + 1n)
      expect(tooMuch[1]!.status).toBe("failure")
    }

    const before = await balanceBefore(tax)
    for (const usdcIn of [10n ** 6n, 777n * 10n ** 6n]) {
      const buy = quoteHop({ pool, tokenIn: usdc, side: "exactIn", amount: usdcIn, outputTaxBps: buyTaxBps })
      const untaxed = quoteHop({ pool, tokenIn: usdc, side: "exactIn", amount: usdcIn })
      if (buy._tag !== "Quoted" || untaxed._tag !== "Quoted") throw new Error("not quoted")
      const results = await swapThenBalance(usdc, usdcIn, tax, untaxed.amountOut)
      expect(results.every((result) => result.status === "success")).toBe(true)
      expect(BigInt(results[2]!.data) - before).toBe(buy.amountOut)
      // exactOut through the tax: the least USDC that lands at least the amount in the wallet.
      const want = buy.amountOut / 2n
      const least = quoteHop({ pool, tokenIn: usdc, side: "exactOut", amount: want, outputTaxBps: buyTaxBps })
      if (least._tag !== "Quoted") throw new Error(least._tag)
      expect(least.amountOut).toBeGreaterThanOrEqual(want)
      const lessOne = quoteHop({
        pool,
        tokenIn: usdc,
        side: "exactIn",
        amount: least.amountIn - 1n,
        outputTaxBps: buyTaxBps
      })
      expect(lessOne._tag === "Quoted" && lessOne.amountOut < want).toBe(true)
    }
  })
})

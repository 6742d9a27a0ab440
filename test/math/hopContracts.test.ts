/**
 * `quoteHop` against the contracts themselves on the shared devnet, through `eth_simulateV1` at the
 * block the index is at: v2 pairs' K check, on Uniswap v2, on the 0.2 % fork and on the v2.5 fork whose
 * pairs each have their own fee (the quoted output passes, one unit more fails; the exactOut input is the
 * least that passes), the launchpad's buy and sell, and a fee-on-transfer token's taxes on
 * the way into and out of its pair.
 * One file, longer than most, because the cases share one private devnet and its contract readers.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, encodeFunctionData, type Hex, parseAbi } from "viem"
import { type CurvePool, quoteHop } from "../../src/math/Hop.js"
import { launchpadAbi, v2PairAbi } from "../support/abis.js"
import { contractAddress, tokenAddress } from "../support/devnet.js"
import { addr, devnetIndex, erc20, lower, sizes } from "./devnetIndex.js"

const { blockNumber, client, holder, indexed, manifest, simulate } = devnetIndex()
const swapFeeAbi = parseAbi(["function swapFee() view returns (uint32)"])

describe("v2 pairs against the pair's own K check", () => {
  // Uniswap v2 (0.3 %), the devnet's 0.2 % fork (`lowfee-v2`) and its v2.5 fork (`pairfee-v2`), whose
  // pairs each keep the fee fixed at their creation: each pair priced with its own fee.
  const labels = [
    "v2:WETH/USDC",
    "v2:DEGEN/USDC",
    "v2:EURC/USDC",
    "lowfee-v2:WETH/USDC",
    "lowfee-v2:WBTC/USDC",
    "pairfee-v2:WETH/USDC",
    "pairfee-v2:WBTC/USDC",
    "pairfee-v2:EURC/USDC"
  ]
  /** The fee in pips the pair charges: its venue's, or (v2.5) what the pair's own `swapFee()` says. */
  const chargedPips = async (label: string, pair: string) =>
    label.startsWith("pairfee-v2:")
      ? Number(await client.readContract({ address: addr(pair), abi: swapFeeAbi, functionName: "swapFee" })) * 100
      : label.startsWith("lowfee-v2:")
      ? 2000
      : 3000

  it("the v2.5 pairs charge different fees, and the index holds each pair's own", async () => {
    const fees = labels.filter((label) => label.startsWith("pairfee-v2:")).map((label) => indexed(label))
    const charged = await Promise.all(fees.map((pool) => chargedPips("pairfee-v2:", pool.id)))
    expect(new Set(charged).size).toBe(3)
    expect(fees.map((pool) => pool.kind === "v2" ? pool.feePips : undefined)).toEqual(charged)
  })

  for (const [n, label] of labels.entries()) {
    it(`${label}: the quoted output passes, one unit more fails; the exactOut input is the least that passes`, async () => {
      const pool = indexed(label)
      if (pool.kind !== "v2") throw new Error("not a v2 pool")
      expect(pool.feePips).toBe(await chargedPips(label, pool.id))
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
          blockNumber: blockNumber()
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
        blockNumber: blockNumber()
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
      await client.readContract({ address: tax, abi: taxAbi, functionName: "buyTaxBps", blockNumber: blockNumber() })
    )
    const sellTaxBps = BigInt(
      await client.readContract({ address: tax, abi: taxAbi, functionName: "sellTaxBps", blockNumber: blockNumber() })
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
        blockNumber: blockNumber()
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

/**
 * The seeded problem tokens behave as their verdicts claim, traded with viem alone on a private
 * devnet: the taxed token delivers exactly its tax less, the honeypot can be bought but not sold, the
 * capped token refuses a trade above its cap; a launchpad curve prices buys by its formula.
 */
import { type Address, erc20Abi, parseUnits } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cappedTokenAbi, launchpadAbi, taxTokenAbi, v2PairAbi, v3SwapRouterAbi } from "../support/abis.js"
import {
  contractAddress,
  manifestAccount,
  poolByLabel,
  type PrivateDevnet,
  startDevnet,
  tokenAddress
} from "../support/devnet.js"
import { v2AmountOut } from "../support/poolMath.js"
import { type Wallet, walletFor } from "../support/wallet.js"

let devnet: PrivateDevnet
let trader: Wallet

beforeAll(async () => {
  devnet = await startDevnet()
  trader = walletFor(devnet.manifest, manifestAccount(devnet.manifest, 7))
})
afterAll(() => devnet?.stop())

/** Reserves of a v2 pair ordered as (token `inLabel`, the other). */
const reservesFor = async (pairLabel: string, tokenIn: Address) => {
  const pool = poolByLabel(devnet.manifest, pairLabel)
  const pair = pool.address as Address
  const [r0, r1] = await trader.public.readContract({ address: pair, abi: v2PairAbi, functionName: "getReserves" })
  const inIs0 = tokenIn.toLowerCase() === pool.token0.toLowerCase()
  return { pair, inIs0, reserveIn: inIs0 ? r0 : r1, reserveOut: inIs0 ? r1 : r0 }
}

/** Buys `label` with USDC on its v2 pool, asking the pair for exactly `out` tokens. */
const buyV2 = async (pairLabel: string, usdcIn: bigint, out?: bigint) => {
  const usdc = tokenAddress(devnet.manifest, "USDC")
  const { pair, inIs0, reserveIn, reserveOut } = await reservesFor(pairLabel, usdc)
  const amountOut = out ?? v2AmountOut(usdcIn, reserveIn, reserveOut)
  await trader.transfer(usdc, pair, usdcIn)
  await trader.write(pair, v2PairAbi, "swap", [inIs0 ? 0n : amountOut, inIs0 ? amountOut : 0n, trader.address, "0x"])
  return amountOut
}

describe("taxed token", () => {
  it("delivers exactly its buy tax less, the tax going to the treasury", async () => {
    const tax = tokenAddress(devnet.manifest, "TAX")
    const [buyBps, treasury] = await Promise.all([
      trader.public.readContract({ address: tax, abi: taxTokenAbi, functionName: "buyTaxBps" }),
      trader.public.readContract({ address: tax, abi: taxTokenAbi, functionName: "treasury" })
    ])
    expect(buyBps).toBeGreaterThan(0)
    let out = 0n
    const [received, taxed] = await trader.deltas(tax, [trader.address, treasury], async () => {
      out = await buyV2("v2:TAX/USDC", parseUnits("1000", 6))
    })
    const expectedTax = (out * BigInt(buyBps)) / 10_000n
    expect(received).toBe(out - expectedTax)
    expect(taxed).toBe(expectedTax)
  })

  it("loses exactly its sell tax on the way into the pair, which prices what it received", async () => {
    const manifest = devnet.manifest
    const tax = tokenAddress(manifest, "TAX")
    const usdc = tokenAddress(manifest, "USDC")
    const sellBps = await trader.public.readContract({ address: tax, abi: taxTokenAbi, functionName: "sellTaxBps" })
    const amount = parseUnits("5000", 18)
    const { pair, inIs0, reserveIn, reserveOut } = await reservesFor("v2:TAX/USDC", tax)
    const [pairGot] = await trader.deltas(tax, [pair], () => trader.transfer(tax, pair, amount))
    const arrived = amount - (amount * BigInt(sellBps)) / 10_000n
    expect(pairGot).toBe(arrived)
    const out = v2AmountOut(arrived, reserveIn, reserveOut)
    const [usdcGot] = await trader.deltas(
      usdc,
      [trader.address],
      () => trader.write(pair, v2PairAbi, "swap", [inIs0 ? 0n : out, inIs0 ? out : 0n, trader.address, "0x"])
    )
    expect(usdcGot).toBe(out)
  })
})

describe("honeypot token", () => {
  it("can be bought", async () => {
    const honey = tokenAddress(devnet.manifest, "HONEY")
    let out = 0n
    const [got] = await trader.deltas(honey, [trader.address], async () => {
      out = await buyV2("v2:HONEY/USDC", parseUnits("200", 6))
    })
    expect(got).toBe(out)
    expect(got).toBeGreaterThan(0n)
  })

  it("cannot be sold back on v2 or v3, though it moves freely between wallets", async () => {
    const manifest = devnet.manifest
    const honey = tokenAddress(manifest, "HONEY")
    const amount = parseUnits("100", 18)
    const pair = poolByLabel(manifest, "v2:HONEY/USDC").address as Address
    // The trader holds plenty: the revert is the token refusing the sale, not a real shortfall.
    expect(await trader.balanceOf(honey)).toBeGreaterThan(amount * 2n)
    const sell = (call: Parameters<typeof trader.public.simulateContract>[0]) => trader.public.simulateContract(call)
    await expect(
      sell({ account: trader.account, address: honey, abi: erc20Abi, functionName: "transfer", args: [pair, amount] })
    ).rejects.toThrow()
    const router = contractAddress(manifest, "v3SwapRouter")
    await trader.approve(honey, router)
    await expect(
      sell({
        account: trader.account,
        address: router,
        abi: v3SwapRouterAbi,
        functionName: "exactInputSingle",
        args: [{
          tokenIn: honey,
          tokenOut: tokenAddress(manifest, "USDC"),
          fee: 3000,
          recipient: trader.address,
          deadline: 2n ** 64n,
          amountIn: amount,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n
        }]
      })
    ).rejects.toThrow()
    const friend = manifestAccount(manifest, 5).address
    const [moved] = await trader.deltas(honey, [friend], () => trader.transfer(honey, friend, amount))
    expect(moved).toBe(amount)
  })
})

describe("capped token", () => {
  it("sells up to its per-transaction cap through a pool and refuses one unit more", async () => {
    const capped = tokenAddress(devnet.manifest, "CAPPED")
    const cap = await trader.public.readContract({ address: capped, abi: cappedTokenAbi, functionName: "maxTxAmount" })
    const usdc = tokenAddress(devnet.manifest, "USDC")
    const { pair, inIs0 } = await reservesFor("v2:CAPPED/USDC", usdc)
    await trader.transfer(usdc, pair, parseUnits("2000", 6))
    const swap = (out: bigint) =>
      trader.public.simulateContract({
        account: trader.account,
        address: pair,
        abi: v2PairAbi,
        functionName: "swap",
        args: [inIs0 ? 0n : out, inIs0 ? out : 0n, trader.address, "0x"]
      })
    await expect(swap(cap + 1n)).rejects.toThrow()
    await expect(swap(cap)).resolves.toMatchObject({ request: { address: pair, functionName: "swap" } })
    // and sent for real, the pool pays out exactly the cap
    const [bought] = await trader.deltas(
      capped,
      [trader.address],
      () => trader.write(pair, v2PairAbi, "swap", [inIs0 ? 0n : cap, inIs0 ? cap : 0n, trader.address, "0x"])
    )
    expect(bought).toBe(cap)
  })
})

describe("launchpad curve", () => {
  it("prices a buy by its constant-product curve", async () => {
    const manifest = devnet.manifest
    const launchpad = contractAddress(manifest, "launchpad")
    const token = tokenAddress(manifest, "LAUNCH_CURVE")
    const usdc = tokenAddress(manifest, "USDC")
    const [usdcReserve, tokenReserve] = await trader.public.readContract({
      address: launchpad,
      abi: launchpadAbi,
      functionName: "curveReserves",
      args: [token]
    })
    const usdcIn = parseUnits("300", 6)
    const expected = (tokenReserve * usdcIn) / (usdcReserve + usdcIn)
    await trader.approve(usdc, launchpad)
    const [got] = await trader.deltas(
      token,
      [trader.address],
      () => trader.write(launchpad, launchpadAbi, "buy", [token, usdcIn, expected])
    )
    expect(got).toBe(expected)
  })
})

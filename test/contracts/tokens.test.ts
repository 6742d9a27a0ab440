import { type Address, parseUnits } from "viem"
import type { HDAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { type Chain, type Deployed, startChain } from "./chain.js"

const e18 = (amount: string) => parseUnits(amount, 18)
const e6 = (amount: string) => parseUnits(amount, 6)

/** Uniswap v2's getAmountOut: 0.3% fee on the input. */
const v2Out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)

describe("pool-aware tokens on a real Uniswap v2 pair", () => {
  let chain: Chain
  let factory: Deployed
  let quote: Deployed
  let alice: HDAccount
  let treasury: HDAccount

  const balanceOf = (token: Deployed, who: Address) => token.read("balanceOf", [who]) as Promise<bigint>

  /** Creates token/quote, registers the pair as the token's pool, and seeds it from the owner. */
  const listOnV2 = async (token: Deployed, tokenAmount: bigint, quoteAmount: bigint) => {
    await factory.write("createPair", [token.address, quote.address])
    const pair = chain.at(
      loadArtifact("UniswapV2Pair").abi,
      (await factory.read("getPair", [token.address, quote.address])) as Address
    )
    await token.write("setPool", [pair.address, true])
    await token.write("transfer", [pair.address, tokenAmount])
    await quote.write("transfer", [pair.address, quoteAmount])
    await pair.write("mint", [chain.deployer.address])
    return pair
  }

  /** Swaps whatever `tokenIn` the pair received beyond its reserve (a fee-on-transfer-safe v2 swap). */
  const swapIn = async (pair: Deployed, tokenIn: Deployed, to: Address) => {
    const [reserve0, reserve1] = (await pair.read("getReserves")) as [bigint, bigint, number]
    const inIs0 = (await pair.read("token0")) === tokenIn.address
    const [reserveIn, reserveOut] = inIs0 ? [reserve0, reserve1] : [reserve1, reserve0]
    const amountOut = v2Out((await balanceOf(tokenIn, pair.address)) - reserveIn, reserveIn, reserveOut)
    await pair.write("swap", [inIs0 ? 0n : amountOut, inIs0 ? amountOut : 0n, to, "0x"], { from: alice })
    return amountOut
  }

  const buy = async (pair: Deployed, quoteIn: bigint) => {
    await quote.write("transfer", [pair.address, quoteIn], { from: alice })
    return swapIn(pair, quote, alice.address)
  }

  beforeAll(async () => {
    chain = await startChain()
    ;[, alice, treasury] = chain.accounts as [HDAccount, HDAccount, HDAccount]
    factory = await chain.deploy("UniswapV2Factory", [chain.deployer.address])
    quote = await chain.deploy("DevToken", ["Quote Dollar", "QUSD", 6, e6("10000000")])
    await quote.write("transfer", [alice.address, e6("100000")])
  })
  afterAll(() => chain.stop())

  it("DevToken mints only for its owner", async () => {
    expect(await quote.read("decimals")).toBe(6)
    await quote.write("mint", [alice.address, e6("5")])
    expect(await balanceOf(quote, alice.address)).toBe(e6("100005"))
    await expect(quote.write("mint", [alice.address, 1n], { from: alice })).rejects.toThrow("Unauthorized")
    await quote.write("transfer", [chain.deployer.address, e6("5")], { from: alice })
  })

  it("TaxToken takes 5% of a buy and 10% of a sell to the treasury, and nothing between wallets", async () => {
    const tax = await chain.deploy("TaxToken", ["Taxed", "TAX", e18("1000000"), 500, 1000, treasury.address])
    const pair = await listOnV2(tax, e18("100000"), e6("100000"))

    const bought = await buy(pair, e6("1000"))
    expect(bought).toBe(v2Out(e6("1000"), e6("100000"), e18("100000")))
    expect(await balanceOf(tax, alice.address)).toBe(bought - (bought * 500n) / 10_000n)
    expect(await balanceOf(tax, treasury.address)).toBe((bought * 500n) / 10_000n)

    const held = await balanceOf(tax, alice.address)
    const treasuryBefore = await balanceOf(tax, treasury.address)
    await tax.write("transfer", [pair.address, held], { from: alice })
    expect(await balanceOf(tax, treasury.address)).toBe(treasuryBefore + (held * 1000n) / 10_000n)
    const quoteBefore = await balanceOf(quote, alice.address)
    const proceeds = await swapIn(pair, tax, alice.address)
    expect(await balanceOf(quote, alice.address)).toBe(quoteBefore + proceeds)
    // The pair prices only the 90% that reached it: 1,000 QUSD round-trips to 851.142799.
    expect(proceeds).toBe(v2Out(held - (held * 1000n) / 10_000n, e18("100000") - bought, e6("101000")))
    expect(proceeds).toBe(851_142_799n)

    await tax.write("transfer", [alice.address, e18("10")])
    await tax.write("transfer", [treasury.address, e18("10")], { from: alice })
    expect(await balanceOf(tax, treasury.address)).toBe(treasuryBefore + (held * 1000n) / 10_000n + e18("10"))
  })

  it("HoneypotToken can be bought but a holder's transfer into the pool reverts", async () => {
    const honey = await chain.deploy("HoneypotToken", ["Honey", "HNY", e18("1000000")])
    const pair = await listOnV2(honey, e18("100000"), e6("100000"))
    const bought = await buy(pair, e6("500"))
    expect(await balanceOf(honey, alice.address)).toBe(bought)

    await expect(honey.write("transfer", [pair.address, bought], { from: alice })).rejects.toThrow(
      "ERC20InsufficientBalance"
    )
    await honey.write("transfer", [treasury.address, e18("1")], { from: alice })
    await honey.write("transfer", [pair.address, e18("1")])

    await honey.write("excludeFromLimits", [alice.address, true])
    await honey.write("transfer", [pair.address, e18("1")], { from: alice })
    expect(await balanceOf(honey, alice.address)).toBe(bought - e18("2"))
  })

  it("CappedToken rejects a trade over maxTxAmount, not one at the cap or a wallet transfer", async () => {
    const capped = await chain.deploy("CappedToken", ["Capped", "CAP", e18("1000000"), e18("1000")])
    const pair = await listOnV2(capped, e18("100000"), e6("100000"))

    const bought = await buy(pair, e6("900"))
    expect(bought).toBeLessThan(e18("1000"))
    expect(await balanceOf(capped, alice.address)).toBe(bought)
    // The pair swallows the token's error and reports its own.
    await expect(buy(pair, e6("2000"))).rejects.toThrow("UniswapV2: TRANSFER_FAILED")

    await capped.write("transfer", [alice.address, e18("1500")])
    await expect(capped.write("transfer", [pair.address, e18("1001")], { from: alice })).rejects.toThrow(
      "MaxTxAmountExceeded"
    )
    await capped.write("transfer", [pair.address, e18("1000")], { from: alice })
    await capped.write("transfer", [treasury.address, e18("1200")], { from: alice })
  })
})

import { type Address, parseUnits, zeroAddress } from "viem"
import type { HDAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Chain, type Deployed, startChain } from "./chain.js"

const e18 = (amount: string) => parseUnits(amount, 18)
const FEE = 3_000
const FULL_RANGE = { tickLower: -887_220, tickUpper: 887_220 }
const deadline = 2n ** 40n

describe("Uniswap v3-periphery artifacts from npm against the npm v3-core factory", () => {
  let chain: Chain
  let factory: Deployed
  let positions: Deployed
  let router: Deployed
  let quote: Deployed
  let trader: HDAccount
  let treasury: HDAccount

  const balance = (token: Deployed, who: Address) => token.read("balanceOf", [who]) as Promise<bigint>

  /** A full-range 1:1 pool of `token` against the quote token, seeded by the deployer. */
  const listOnV3 = async (token: Deployed) => {
    const [token0, token1] = BigInt(token.address) < BigInt(quote.address) ? [token, quote] : [quote, token]
    await positions.write("createAndInitializePoolIfNecessary", [token0.address, token1.address, FEE, 2n ** 96n])
    for (const t of [token0, token1]) await t.write("approve", [positions.address, e18("100000")])
    await positions.write("mint", [
      {
        token0: token0.address,
        token1: token1.address,
        fee: FEE,
        ...FULL_RANGE,
        amount0Desired: e18("100000"),
        amount1Desired: e18("100000"),
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: chain.deployer.address,
        deadline
      }
    ])
    return (await factory.read("getPool", [token0.address, token1.address, FEE])) as Address
  }

  const swapExactIn = (tokenIn: Deployed, tokenOut: Deployed, amountIn: bigint) =>
    router.write(
      "exactInputSingle",
      [
        {
          tokenIn: tokenIn.address,
          tokenOut: tokenOut.address,
          fee: FEE,
          recipient: trader.address,
          deadline,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n
        }
      ],
      { from: trader }
    )

  beforeAll(async () => {
    chain = await startChain()
    ;[, trader, treasury] = chain.accounts as [HDAccount, HDAccount, HDAccount]
    factory = await chain.deploy("UniswapV3Factory")
    positions = await chain.deploy("NonfungiblePositionManager", [factory.address, zeroAddress, zeroAddress])
    router = await chain.deploy("SwapRouter", [factory.address, zeroAddress])
    quote = await chain.deploy("DevToken", ["Quote", "QTE", 18, e18("1000000")])
    await quote.write("transfer", [trader.address, e18("10000")])
    await quote.write("approve", [router.address, 2n ** 256n - 1n], { from: trader })
  })
  afterAll(() => chain.stop())

  it("adds liquidity and swaps both ways through the real SwapRouter", async () => {
    const token = await chain.deploy("DevToken", ["Plain", "PLN", 18, e18("1000000")])
    const pool = await listOnV3(token)
    expect(await balance(token, pool)).toBe(e18("100000"))

    await swapExactIn(quote, token, e18("100"))
    const bought = await balance(token, trader.address)
    // 0.3% fee plus a 0.1% price impact on a 100k/100k full-range pool.
    expect(bought).toBeGreaterThan(e18("99.5"))
    expect(bought).toBeLessThan(e18("99.7"))

    await token.write("approve", [router.address, bought], { from: trader })
    await swapExactIn(token, quote, bought)
    expect(await balance(token, trader.address)).toBe(0n)
  })

  it("taxes TaxToken buys on v3, while a taxed sell fails the pool's balance check", async () => {
    const tax = await chain.deploy("TaxToken", ["Taxed", "TAX", e18("1000000"), 500, 1000, treasury.address])
    const pool = await listOnV3(tax)
    await tax.write("setPool", [pool, true])

    await swapExactIn(quote, tax, e18("100"))
    const received = await balance(tax, trader.address)
    const taxPaid = await balance(tax, treasury.address)
    expect(taxPaid).toBe(((received + taxPaid) * 500n) / 10_000n)

    await tax.write("approve", [router.address, received], { from: trader })
    await expect(swapExactIn(tax, quote, received)).rejects.toThrow("IIA")
  })
})

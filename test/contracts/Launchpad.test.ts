import { type Address, parseEther, parseEventLogs, parseUnits, type TransactionReceipt } from "viem"
import type { HDAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { USDC_ADDRESS } from "../../schema/Chain.js"
import { type Chain, type Deployed, startChain } from "./chain.js"

const USDC: Address = USDC_ADDRESS
const DEAD: Address = "0x000000000000000000000000000000000000dEaD"
const e6 = (amount: string) => parseUnits(amount, 6)
const M = 10n ** 6n * 10n ** 18n

describe("Launchpad: create, trade the curve, graduate into Uniswap v2", () => {
  let chain: Chain
  let usdc: Deployed
  let factory: Deployed
  let launchpad: Deployed
  let creator: HDAccount
  let trader: HDAccount
  let token: Deployed

  const events = (receipt: TransactionReceipt, eventName: string) =>
    parseEventLogs({ abi: loadArtifact("Launchpad").abi, logs: receipt.logs, eventName }).map((log) => log.args)

  beforeAll(async () => {
    chain = await startChain()
    ;[, creator, trader] = chain.accounts as [HDAccount, HDAccount, HDAccount]
    const devUsdc = loadArtifact("DevUSDC")
    await chain.testClient.setCode({ address: USDC, bytecode: devUsdc.deployedBytecode })
    usdc = chain.at(devUsdc.abi, USDC)
    factory = await chain.deploy("UniswapV2Factory", [chain.deployer.address])
    launchpad = await chain.deploy("Launchpad", [USDC, factory.address, e6("1000"), e6("3000")])
    await usdc.write("deposit", [], { from: trader, value: parseEther("5000") })
    await usdc.write("approve", [launchpad.address, e6("5000")], { from: trader })
  })
  afterAll(() => chain.stop())

  it("creates a token, holds its whole supply and records the creator", async () => {
    const receipt = await launchpad.write("createToken", ["Moon Cat", "MCAT"], { from: creator })
    const [created] = events(receipt, "TokenCreated") as [
      { token: Address; creator: Address; name: string; symbol: string; supply: bigint }
    ]
    expect(created).toMatchObject({ creator: creator.address, name: "Moon Cat", symbol: "MCAT", supply: 1000n * M })
    token = chain.at(loadArtifact("LaunchToken").abi, created.token)
    expect(await token.read("symbol")).toBe("MCAT")
    expect(await token.read("balanceOf", [launchpad.address])).toBe(1000n * M)
    expect(await launchpad.read("creatorOf", [token.address])).toBe(creator.address)
    expect(await launchpad.read("graduated", [token.address])).toBe(false)
    expect(await launchpad.read("curveReserves", [token.address])).toEqual([e6("1000"), 800n * M])
  })

  it("prices buys and sells on the virtual-reserve constant product", async () => {
    // 800M tokens against 1,000 virtual USDC: 1,000 USDC in buys exactly half of the curve.
    const bought = await launchpad.write("buy", [token.address, e6("1000"), 400n * M], { from: trader })
    expect(events(bought, "CurveTrade")).toEqual([
      { token: token.address, trader: trader.address, isBuy: true, usdcAmount: e6("1000"), tokenAmount: 400n * M }
    ])
    expect(await token.read("balanceOf", [trader.address])).toBe(400n * M)

    await token.write("approve", [launchpad.address, 100n * M], { from: trader })
    const sold = await launchpad.write("sell", [token.address, 100n * M, 0n], { from: trader })
    expect(events(sold, "CurveTrade")).toEqual([
      { token: token.address, trader: trader.address, isBuy: false, usdcAmount: e6("400"), tokenAmount: 100n * M }
    ])
    expect(await launchpad.read("curveReserves", [token.address])).toEqual([e6("1600"), 500n * M])
    await expect(launchpad.write("buy", [token.address, e6("1"), 10n ** 30n], { from: trader })).rejects.toThrow(
      "InsufficientOutput"
    )
  })

  it("closes the curve at the threshold and graduates into a v2 pair at the curve's last price", async () => {
    await expect(launchpad.write("graduate", [token.address])).rejects.toThrow("GraduationThresholdNotMet")
    await launchpad.write("buy", [token.address, e6("2500"), 0n], { from: trader })
    const [usdcReserve, tokenReserve] = (await launchpad.read("curveReserves", [token.address])) as [bigint, bigint]
    expect(usdcReserve).toBe(e6("4100"))
    await expect(launchpad.write("buy", [token.address, e6("1"), 0n], { from: trader })).rejects.toThrow(
      "CurveComplete"
    )

    const receipt = await launchpad.write("graduate", [token.address], { from: trader })
    const pair = (await factory.read("getPair", [token.address, USDC])) as Address
    const tokenLiquidity = (e6("3100") * tokenReserve) / usdcReserve
    expect(events(receipt, "Graduated")).toEqual([
      { token: token.address, pool: pair, usdcLiquidity: e6("3100"), tokenLiquidity }
    ])
    expect(await launchpad.read("graduated", [token.address])).toBe(true)
    expect(await usdc.read("balanceOf", [pair])).toBe(e6("3100"))
    expect(await token.read("balanceOf", [pair])).toBe(tokenLiquidity)
    expect(await usdc.read("balanceOf", [launchpad.address])).toBe(0n)
    expect(await token.read("balanceOf", [launchpad.address])).toBe(0n)
    expect(await token.read("balanceOf", [DEAD])).toBe(200n * M + tokenReserve - tokenLiquidity)
    await expect(launchpad.write("graduate", [token.address])).rejects.toThrow("CurveComplete")
  })
})

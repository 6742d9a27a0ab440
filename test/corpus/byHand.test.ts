/**
 * Each corpus design proven by hand before the service is asked about it: on a private devnet, a normal
 * wallet buys $100 and sells everything back through Uniswap's Router02 fee-on-transfer functions (the
 * v4 designs: PoolSwapTest), and the taxes it measures are the corpus table's. Honest designs sell back
 * at a fair price; the trap hook keeps at least half of a sell. The designs' own mechanics are witnessed
 * too: the fee sale during a sell, reflections that grow a balance with no Transfer, the dividend
 * token's gas check, the pool burn, the launch-block sniper.
 */
import { erc20Abi, maxUint256, parseAbi, parseEventLogs, parseUnits } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientsFor, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { router02Abi, swapOnRouter02 } from "../support/router02.js"
import type { Wallet } from "../support/wallet.js"
import { corpus, type CorpusEntry, MEASURE_TOLERANCE_BPS, ROUND_TRIP_USDC } from "./corpus.js"
import { type Corpus, deployCorpus, fundedWallet } from "./deploy.js"
import { type RoundTrip, roundTripV2, roundTripV4 } from "./measure.js"

let devnet: PrivateDevnet
let deployment: Corpus

beforeAll(async () => {
  devnet = await startDevnet()
  deployment = await deployCorpus(devnet.manifest)
}, 120_000)
afterAll(() => devnet?.stop())

const roundTrip = async (entry: CorpusEntry, wallet: Wallet): Promise<RoundTrip> => {
  const listed = deployment.listed[entry.name]
  return entry.venue === "v2"
    ? roundTripV2(wallet, deployment.router02, deployment.usdc, listed, ROUND_TRIP_USDC)
    : roundTripV4(devnet.manifest, wallet, deployment.usdc, listed, ROUND_TRIP_USDC)
}

/** Runs `action` and puts the chain back as it was. */
const thenRevert = async <A>(action: () => Promise<A>): Promise<A> => {
  const { test } = clientsFor(devnet.manifest)
  const id = await test.snapshot()
  try {
    return await action()
  } finally {
    await test.revert({ id })
  }
}

describe.each(corpus)("$name ($design)", (entry) => {
  it(`round trip through Uniswap measures the corpus figures; verdict owed: ${entry.verdict}`, async () => {
    const wallet = await fundedWallet(devnet.manifest, "1000")
    const measured = await thenRevert(() => roundTrip(entry, wallet))
    expect(Math.abs(measured.buyTaxBps - entry.buyTaxBps)).toBeLessThanOrEqual(MEASURE_TOLERANCE_BPS)
    expect(Math.abs(measured.sellTaxBps - entry.sellTaxBps)).toBeLessThanOrEqual(MEASURE_TOLERANCE_BPS)
    expect(measured.sent).toBe(measured.held)
    const lossBps = Number((ROUND_TRIP_USDC - measured.usdcBack) * 10_000n / ROUND_TRIP_USDC)
    if (entry.verdict === "cannot_sell") {
      expect(measured.sellTaxBps).toBeGreaterThanOrEqual(5_000)
      expect(lossBps).toBeGreaterThanOrEqual(5_000)
    } else {
      // Fair: nothing lost beyond the taxes (a swap-back's move of the pool included), two pool fees
      // (60 bps) and the $100's price impact.
      expect(lossBps).toBeLessThanOrEqual(measured.buyTaxBps + measured.sellCostBps + 70)
    }
  })
})

/** A wallet that bought $100 of `name` through Router02 and holds it. */
const holderOf = async (name: CorpusEntry["name"]) => {
  const wallet = await fundedWallet(devnet.manifest, "1000")
  const token = deployment.listed[name].token
  const bought = await swapOnRouter02(wallet, deployment.router02, deployment.usdc, token, ROUND_TRIP_USDC)
  return { wallet, token, bought }
}

const sellOnRouter02 = (wallet: Wallet, token: `0x${string}`, amount: bigint) =>
  swapOnRouter02(wallet, deployment.router02, token, deployment.usdc, amount)

describe("the designs' mechanics, witnessed on chain", () => {
  it("tax: a sell runs swapAndLiquify in the seller's transfer (200 tokens sold and added, USDC to marketing)", async () => {
    await thenRevert(async () => {
      const { wallet, token } = await holderOf("tax")
      const held = await wallet.balanceOf(token)
      const [contract, marketing] = await wallet.changes(
        [[token, token], [deployment.usdc, deployment.marketing]],
        () => sellOnRouter02(wallet, token, held)
      )
      expect(contract).toBe(held * 500n / 10_000n - parseUnits("200", 18))
      expect(marketing).toBeGreaterThan(0n)
    })
  })

  it("reflection: the buyer's balance grows by more than the Transfer event that paid it", async () => {
    await thenRevert(async () => {
      const { wallet, token, bought } = await holderOf("reflection")
      const [paid] = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: bought.receipt.logs })
        .filter((log) => log.address.toLowerCase() === token.toLowerCase() && log.args.to === wallet.address)
      expect(bought.received).toBeGreaterThan(paid!.args.value)
    })
  })

  it("dividend: a sell with the gas the node estimates goes through; with 1.3 x the gas it then used, it reverts", async () => {
    await thenRevert(async () => {
      const { wallet, token } = await holderOf("dividend")
      const held = await wallet.balanceOf(token)
      const { test } = clientsFor(devnet.manifest)
      const beforeSell = await test.snapshot()
      const generous = await sellOnRouter02(wallet, token, held)
      expect(generous.received).toBeGreaterThan(0n)
      await test.revert({ id: beforeSell })
      const hash = await wallet.wallet.writeContract({
        account: wallet.account,
        chain: wallet.chain,
        address: deployment.router02,
        abi: router02Abi,
        functionName: "swapExactTokensForTokensSupportingFeeOnTransferTokens",
        args: [held, 0n, [token, deployment.usdc], wallet.address, maxUint256],
        gas: generous.receipt.gasUsed * 13n / 10n
      })
      expect((await wallet.public.waitForTransactionReceipt({ hash })).status).toBe("reverted")
    })
  })

  it("poolBurn: a sell burns from the pair and syncs it before the seller's tokens arrive", async () => {
    await thenRevert(async () => {
      const { wallet, token } = await holderOf("poolBurn")
      const { pair } = deployment.listed.poolBurn
      const sold = await sellOnRouter02(wallet, token, await wallet.balanceOf(token))
      const syncs = parseEventLogs({
        abi: parseAbi(["event Sync(uint112 reserve0, uint112 reserve1)"]),
        logs: sold.receipt.logs
      }).filter((log) => log.address.toLowerCase() === pair!.toLowerCase())
      // One from the token's sync(), one from the pair's swap.
      expect(syncs).toHaveLength(2)
    })
  })

  it("launch: the bot that bought in the launch block is barred from selling; later buyers are not", async () => {
    const { sniper } = deployment
    const { token } = deployment.listed.launch
    const isSniper = parseAbi(["function isSniper(address) view returns (bool)"])
    const read = (account: `0x${string}`) =>
      sniper.public.readContract({ address: token, abi: isSniper, functionName: "isSniper", args: [account] })
    expect(await read(sniper.address)).toBe(true)
    const held = await sniper.balanceOf(token)
    expect(held).toBeGreaterThan(0n)
    await expect(sellOnRouter02(sniper, token, held)).rejects.toThrow(/TRANSFER_FROM_FAILED/)
    await thenRevert(async () => {
      const { wallet } = await holderOf("launch")
      expect(await read(wallet.address)).toBe(false)
    })
  })

  it("launch: a buy above the max transaction (10,000 tokens) reverts in the pair's transfer", async () => {
    const whale = await fundedWallet(devnet.manifest, "30000")
    const { token } = deployment.listed.launch
    await expect(swapOnRouter02(whale, deployment.router02, deployment.usdc, token, parseUnits("25000", 6))).rejects
      .toThrow(/TRANSFER_FAILED/)
  })
})

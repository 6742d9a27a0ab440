/**
 * The agents' client (`trade-checkpoint/client`) against the service's HTTP edge on a private devnet, as
 * an agent uses it: `TradeClient.trade` buys WETH with USDC through the approve flow and sells half of it
 * back through Permit2, both receipts `pass`; it stops on a token that cannot be sold back after paying
 * for the quote and before paying for a swap; it refuses a call beyond its session budget before
 * signing. In each, what the client says it spent is exactly the fee recipient's rise.
 */
import { type Address, createWalletClient, formatUnits, http } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BudgetExceeded, TradeClient, type TradeStep, viemWallet } from "../../src/client/index.js"
import { chainOf, clientsFor, manifestAccount } from "../support/devnet.js"
import { indexedPast, newTaker, type PaidService, startPaidService, type Taker } from "../support/paidService.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { walletFor } from "../support/wallet.js"
import { USDC } from "../support/x402.js"

let service: PaidService
let taker: Taker
beforeAll(async () => {
  service = await startPaidService()
  taker = await newTaker(service)
}, 120_000)
afterAll(() => service?.stop())

const budget = { perCall: 50_000n, perSession: 1_000_000n }
const clientFor = (limits = budget) =>
  new TradeClient({ baseUrl: service.server.baseUrl, payer: taker.account, budget: limits })
const tradingWallet = () => {
  const manifest = service.devnet.manifest
  const wallet = createWalletClient({
    account: taker.account,
    chain: chainOf(manifest),
    transport: http(manifest.rpcUrl)
  })
  return viemWallet(wallet, clientsFor(manifest).public)
}
const feeRise = (action: () => Promise<unknown>) =>
  walletFor(service.devnet.manifest, taker.account).deltas(USDC, [service.payTo], action).then(([rise]) => rise!)

describe("TradeClient", () => {
  it("buys WETH (approve flow) and sells half back (Permit2), both receipts pass, spending what the fee recipient got", async () => {
    const client = clientFor()
    const steps: Array<TradeStep["step"]> = []
    const rise = await feeRise(async () => {
      const weth = (await client.search({ query: "WETH", limit: 1 })).value.results[0]!.address as Address
      const bought = await client.trade({
        sell: USDC,
        buy: weth,
        amount: "5",
        approval: "approve",
        wallet: tradingWallet(),
        onStep: (step) => steps.push(step.step)
      })
      expect(bought).toMatchObject({ outcome: "pass", receipt: { result: "pass" } })
      expect(bought.delivered).toBeGreaterThan(0n)
      expect(steps).toEqual(["quote", "swap", "sent", "sent", "receipt"])

      steps.length = 0
      const sold = await client.trade({
        sell: weth,
        buy: USDC,
        amount: formatUnits(bought.delivered / 2n, 18),
        wallet: tradingWallet(),
        onStep: (step) => steps.push(step.step)
      })
      expect(sold).toMatchObject({ outcome: "pass", receipt: { result: "pass" } })
      expect(steps).toEqual(["quote", "swap", "permit", "swap_tx", "sent", "sent", "receipt"])
    })
    // search 0.005, two quotes and two swaps at 0.01
    expect(client.spent()).toBe(45_000n)
    expect(rise).toBe(client.spent())
  })

  it("stops on a token that cannot be sold back before paying for a swap", async () => {
    const manifest = service.devnet.manifest
    const lp = walletFor(manifest, manifestAccount(manifest, 2))
    await fundLiquidityProvider(manifest, lp)
    const trap = await deployTrap(lp, "SimulationAwareToken")
    await indexedPast(service, BigInt((await listWithPair(manifest, lp, trap)).block))
    const client = clientFor()
    const steps: Array<TradeStep> = []
    const rise = await feeRise(async () => {
      const result = await client.trade({
        sell: USDC,
        buy: trap,
        amount: "5",
        wallet: tradingWallet(),
        onStep: (step) => steps.push(step)
      })
      expect(result.outcome).toBe("stopped")
      expect(result.quote.safety?.verdict).toBe("cannot_sell")
    })
    expect(steps.map((step) => step.step)).toEqual(["quote", "refused"])
    // The quote was paid; no swap was.
    expect(client.spent()).toBe(10_000n)
    expect(rise).toBe(10_000n)
  })

  it("refuses a call beyond the session budget before signing, and charges nothing for it", async () => {
    const client = clientFor({ perCall: 50_000n, perSession: 12_000n })
    const rise = await feeRise(async () => {
      const weth = (await client.search({ query: "WETH", limit: 1 })).value.results[0]!.address
      await expect(client.quote({ sell: USDC, buy: weth, amount: "1" })).rejects.toBeInstanceOf(BudgetExceeded)
    })
    expect(client.spent()).toBe(5_000n)
    expect(rise).toBe(5_000n)
  })
})

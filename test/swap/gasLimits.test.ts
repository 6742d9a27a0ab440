/**
 * The gas a returned transaction carries is the least limit under which its simulation succeeds, plus
 * headroom, and the simulation `swap` reports ran at exactly that limit. A dividend-style token that
 * requires 400,000 gas at each pool transfer while using a fraction of it trades both ways when every
 * transaction is sent with exactly its returned `gas`; the old rule (what a large-limit simulation used,
 * plus 30 %) would have sent it with too little.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, formatUnits } from "viem"
import { manifestAccount, tokenAddress } from "../support/devnet.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { walletFor } from "../support/wallet.js"
import { harnessPerFile, takerOn } from "./harness.js"

const { harness, ops, trade } = harnessPerFile()
let USDC: Address
let gate: Address

beforeAll(async () => {
  const { manifest } = harness.devnet
  USDC = tokenAddress(manifest, "USDC")
  const lp = walletFor(manifest, manifestAccount(manifest, 2))
  await fundLiquidityProvider(manifest, lp)
  gate = await deployTrap(lp, "GasGateToken")
  await ops.indexed(BigInt((await listWithPair(manifest, lp, gate)).block))
}, 180_000)

const DISTRIBUTOR_GAS = 400_000n

describe("gas limits that hold on chain", () => {
  it("a token that requires more gas than it uses trades both ways at exactly the returned gas", async () => {
    const taker = await takerOn(harness)
    const bought = await trade(taker, { sell: USDC, buy: gate, amount: "100" })
    const sold = await trade(taker, { sell: gate, buy: USDC, amount: formatUnits(bought.delivered, 18) }, {
      approval: "approve"
    })
    expect(await taker.balanceOf(gate)).toBe(0n)
    for (const { final } of [bought, sold]) {
      const swap = final.transactions.find((tx) => tx.purpose === "swap")!
      expect(BigInt(swap.gas)).toBeGreaterThan(DISTRIBUTOR_GAS)
    }
  })

  it("what the swap used is far below what it requires: used plus 30 % would have reverted", async () => {
    const taker = await takerOn(harness)
    const { final } = await trade(taker, { sell: USDC, buy: gate, amount: "50" })
    const swap = final.transactions.find((tx) => tx.purpose === "swap")!
    const receipts = await taker.clients.public.getTransactionReceipt({
      hash:
        (await taker.clients.public.getBlock({ blockTag: "latest", includeTransactions: true })).transactions.at(-1)!
          .hash
    })
    expect(receipts.to?.toLowerCase()).toBe(swap.to.toLowerCase())
    expect((receipts.gasUsed * 130n) / 100n).toBeLessThan(DISTRIBUTOR_GAS)
  })
})

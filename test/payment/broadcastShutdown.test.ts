/**
 * Closing the service while a broadcast settlement it served is sent and not yet mined (the node's
 * automining turned off, so the receipt never comes while the test holds it): the close finishes its
 * sends and stops following, rather than waiting for a block. What it left unconfirmed is recovered by
 * the next start: its nonce counter starts from the node's pending count, so the restarted service
 * numbers its first settlement right after the one left in the pool, and both land once blocks come (its
 * first answer waits for its own settlement's block, the one left in the pool being unmined).
 */
import type { Hex } from "viem"
import { describe, expect, it } from "vitest"
import { roles } from "../../devnet/accounts.js"
import { clientsFor, pooled } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const settlementKey = roles().treasury.address
const harness = gateHarness(5, { SETTLEMENT_MODE: "broadcast" })

describe("a broadcast service closed while a settlement is unconfirmed", () => {
  it("closes without waiting for the block, and restarted numbers after what it left", async () => {
    const manifest = harness.manifest()
    const [first, second] = await harness.twoPayers(search)
    const { public: chain, test } = clientsFor(manifest)

    const deltas = await walletFor(manifest, first.account).deltas(
      USDC,
      [first.account.address, second.account.address, harness.payTo],
      async () => {
        await test.setAutomine(false)
        const left = await harness.paid(search, first.header)
        const sent = await pooled(manifest, left.transaction as Hex)
        const head = await chain.getBlockNumber()

        await harness.close()
        // Closed while the node still has not mined the settlement it was following.
        expect(await chain.getBlockNumber()).toBe(head)
        await expect(chain.getTransactionReceipt({ hash: left.transaction as Hex })).rejects.toThrow()

        harness.restart()
        // Restarted with the first settlement unmined, the service serves no call before its own
        // settlement is mined (docs/payments.md, *A restart*): the next answer waits for the block.
        const answered = harness.paid(search, second.header)
        await new Promise((resolve) => setTimeout(resolve, 300))
        await test.setAutomine(true)
        await test.mine({ blocks: 1 })
        const next = await answered
        expect((await pooled(manifest, next.transaction as Hex)).nonce).toBe(sent.nonce + 1)
        for (const hash of [left.transaction, next.transaction]) {
          const landed = await chain.waitForTransactionReceipt({ hash: hash as Hex, timeout: 20_000 })
          expect(landed.status).toBe("success")
        }
        await harness.settled()
      }
    )
    // Each payer charged once, the fee recipient paid both; no nonce of the key left unmined.
    expect(deltas).toEqual([-5_000n, -5_000n, 10_000n])
    expect(await chain.getTransactionCount({ address: settlementKey, blockTag: "latest" }))
      .toBe(await chain.getTransactionCount({ address: settlementKey, blockTag: "pending" }))
  })
})

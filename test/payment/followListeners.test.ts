/**
 * Following one settlement polls the head for its receipt until it is mined, which at slow blocks is
 * many polls: each poll's wait must leave the confirmation's abort signal as it found it, or listeners
 * pile up on it for as long as the settlement stays unmined (Node warns past ten).
 */
import { describe, expect, it } from "@effect/vitest"
import { getEventListeners } from "node:events"
import { keccak256, toHex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { settlementFollower } from "../../layers/payment/SettlementFollow.js"
import type { SentSettlement } from "../../layers/payment/SettlementNonce.js"
import { clientsFor, sharedManifest } from "../support/devnet.js"

const POLLS = 30

describe("following an unmined settlement", () => {
  it("adds no abort listener per poll, and stops when aborted", async () => {
    const chain = clientsFor(sharedManifest()).public
    let polls = 0
    const account = privateKeyToAccount(generatePrivateKey())
    const confirm = settlementFollower({
      account,
      client: {
        getBlockNumber: (args) => {
          polls++
          return chain.getBlockNumber(args)
        },
        getTransactionReceipt: (args) => chain.getTransactionReceipt(args),
        getTransactionCount: (args) => chain.getTransactionCount(args),
        sendRawTransaction: (args) => chain.sendRawTransaction(args)
      },
      signed: () => Promise.reject(new Error("no replacement is due within the test")),
      currentFees: () => Promise.resolve({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
      options: { pollMs: 1, replaceAfterMs: 3_600_000, giveUpAfterMs: 3_600_000 }
    })
    // A transaction the node never saw: its receipt is never found, so the follower keeps polling.
    const sent: SentSettlement = {
      call: { to: account.address, data: "0x" },
      nonce: 0,
      hashes: [keccak256(toHex("a settlement the node never saw"))],
      fees: { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
      raw: "0x",
      sentAt: Date.now(),
      previous: Promise.resolve(),
      tried: () => undefined
    }
    const controller = new AbortController()
    const followed = confirm(sent, Date.now() + 3_600_000, controller.signal).catch((error: unknown) => error)
    while (polls < POLLS) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1)
    controller.abort()
    expect(await followed).toMatchObject({ message: "stopped before the settlement was confirmed" })
  })
})

/**
 * Settlements followed at once share one poll: one head read wakes them all, and each asks for its
 * receipts only when the head has moved since it last looked (a receipt appears only with a block). A
 * payer calling back to back keeps dozens unconfirmed; polled one by one, each would ask the node ten
 * times a second. On a bare anvil of its own that mines only when told, so the head moves when the test
 * says; the settlements are transactions the node never saw, so none is ever found.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { createPublicClient, createTestClient, http, keccak256, type PublicClient, toHex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { settlementFollower } from "../../layers/payment/SettlementFollow.js"
import type { SentSettlement } from "../../layers/payment/SettlementNonce.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { untilAsync } from "../support/until.js"

const FOLLOWED = 5
const scope = Effect.runSync(Scope.make())
let rpcUrl: string
beforeAll(async () => {
  rpcUrl = (await startPlainAnvil(scope)).rpcUrl
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const unseen = (i: number): SentSettlement => ({
  call: { to: privateKeyToAccount(generatePrivateKey()).address, data: "0x" },
  nonce: i,
  hashes: [keccak256(toHex(`a settlement the node never saw, ${i}`))],
  fees: { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
  raw: "0x",
  sentAt: Date.now(),
  previous: Promise.resolve(),
  tried: () => undefined
})

describe("settlements followed at once", () => {
  it("share one head read per poll, and ask for receipts only once the head moved", async () => {
    const chain: PublicClient = createPublicClient({ transport: http(rpcUrl), cacheTime: 0 })
    const asked = { heads: 0, receipts: 0 }
    const confirm = settlementFollower({
      account: privateKeyToAccount(generatePrivateKey()),
      client: {
        getBlockNumber: (args) => {
          asked.heads++
          return chain.getBlockNumber(args)
        },
        getTransactionReceipt: (args) => {
          asked.receipts++
          return chain.getTransactionReceipt(args)
        },
        getTransactionCount: (args) => chain.getTransactionCount(args),
        sendRawTransaction: (args) => chain.sendRawTransaction(args)
      },
      signed: () => Promise.reject(new Error("no replacement is due within the test")),
      currentFees: () => Promise.resolve({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
      options: { pollMs: 5, replaceAfterMs: 3_600_000, giveUpAfterMs: 3_600_000 }
    })
    const controller = new AbortController()
    const followed = Array.from(
      { length: FOLLOWED },
      (_, i) => confirm(unseen(i), Date.now() + 3_600_000, controller.signal).catch((error: unknown) => error)
    )

    // Each looks once, at the first poll; then polls pass with the head still.
    await untilAsync("twenty polls", async () => asked.heads >= 20)
    const still = { ...asked }
    expect(still.receipts).toBe(FOLLOWED)
    await untilAsync("twenty more polls", async () => asked.heads >= still.heads + 20)
    expect(asked.receipts).toBe(FOLLOWED)

    // A block: each looks once more, at the first poll that reads it.
    await createTestClient({ transport: http(rpcUrl), mode: "anvil" }).mine({ blocks: 1 })
    await untilAsync("every follower to look again", async () => asked.receipts >= 2 * FOLLOWED)
    const moved = asked.heads
    await untilAsync("twenty polls after the block", async () => asked.heads >= moved + 20)
    expect(asked.receipts).toBe(2 * FOLLOWED)

    controller.abort()
    for (const outcome of await Promise.all(followed)) {
      expect(outcome).toMatchObject({ message: "stopped before the settlement was confirmed" })
    }
  })
})

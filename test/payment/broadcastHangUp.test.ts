/**
 * A payer hanging up while its broadcast settlement is being signed. From the moment a nonce of the
 * settlement key is handed out, later settlements are sent behind it; a settlement cut off then must
 * still be sent, or every later payer is served and never charged, its settlement waiting behind a
 * nonce no one sends. The window is held open by a node slow to answer the one read inside it (the
 * settlement key's pending nonce, read when the gate numbers its first settlement), through a JSON-RPC
 * proxy, armed once the gate is up (starting, it reads that count too, to know what an earlier run left); the hang-up is the gate's fiber interrupted, as the HTTP server does when the client's
 * connection closes. Each case has its own gate, since only a gate's first settlement reads the nonce.
 */
import { Effect, Option } from "effect"
import type { Hex } from "viem"
import { describe, expect, it } from "vitest"
import { roles } from "../../devnet/accounts.js"
import { type PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { clientsFor } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const settlementKey = roles().treasury.address

/** A gate whose first settlement's numbering waits, once it has begun, until the test lets it go on. */
const heldAtSigning = () => {
  let reached = () => {}
  const signing = new Promise<void>((resolve) => (reached = resolve))
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  let first = true
  let armed = false
  const harness = gateHarness(5, { SETTLEMENT_MODE: "broadcast" }, {}, (call) => {
    const numbering = call.method === "eth_getTransactionCount" && call.params[1] === "pending" &&
      String(call.params[0]).toLowerCase() === settlementKey.toLowerCase()
    if (!numbering || !armed || !first) return undefined
    first = false
    reached()
    return released
  })
  return { harness, signing, release, arm: () => void (armed = true) }
}

type Settling = (gate: PaymentGate["Type"], header: string) => Effect.Effect<unknown, unknown>

const hangUpWhileSigning = (settling: Settling) => {
  const { arm, harness, release, signing } = heldAtSigning()
  return async () => {
    const manifest = harness.manifest()
    const [gone, next] = await harness.twoPayers(search)
    arm()
    const chain = clientsFor(manifest).public

    const deltas = await walletFor(manifest, gone.account).deltas(
      USDC,
      [gone.account.address, next.account.address, harness.payTo],
      async () => {
        const hangUp = new AbortController()
        const cut = harness.gate((g) => settling(g, gone.header), hangUp.signal).catch(() => undefined)
        await signing
        hangUp.abort()
        release()
        await cut

        const served = await harness.paid(search, next.header)
        expect(served.success).toBe(true)
        // The settlement its answer named lands, sent behind the cut-off one.
        const landed = await chain.waitForTransactionReceipt({ hash: served.transaction as Hex, timeout: 20_000 })
        expect(landed.status).toBe("success")
        await harness.settled()
      }
    )
    // The cut-off settlement was sent too: each payer charged once, the fee recipient paid both.
    expect(deltas).toEqual([-5_000n, -5_000n, 10_000n])
    expect(await chain.getTransactionCount({ address: settlementKey, blockTag: "latest" }))
      .toBe(await chain.getTransactionCount({ address: settlementKey, blockTag: "pending" }))
  }
}

describe("a paid call whose payer hangs up while its settlement is signed", () => {
  it(
    "is still settled, and the next payer is served and charged once",
    hangUpWhileSigning((gate, header) =>
      gate.charge(search, Option.some(SubmittedPayment.header(header)), Effect.succeed("answer"))
    )
  )
})

describe("the gate's settle, interrupted while it signs", () => {
  it(
    "still sends the settlement, and the next payer is served and charged once",
    hangUpWhileSigning((gate, header) =>
      Effect.flatMap(gate.verify(search, SubmittedPayment.header(header)), gate.settle)
    )
  )
})

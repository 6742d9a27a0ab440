/**
 * Fault injection: the payment library breaking, and the authorization ledger going away. No real
 * facilitator or ledger can be made to fail this way on request, so the gate is built here over a
 * facilitator that fails (named `failingFacilitator`) and a ledger that fails (named `brokenLedger`).
 * The payment itself is real: signed by the public x402 client for the gate's own offer.
 */
import { expect, it } from "@effect/vitest"
import { InMemoryPendingSettlementStore } from "@x402/core/facilitator"
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { Effect, Option, TestClock } from "effect"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { type AuthorizationLedgerShape, LedgerUnavailable } from "../../layers/payment/AuthorizationLedger.js"
import { type Facilitator, PaymentLibraryFailure } from "../../layers/payment/Facilitator.js"
import { makeGate } from "../../layers/payment/Gate.js"
import type { PaymentTerms } from "../../layers/payment/Requirements.js"
import { SubmittedPayment } from "../../layers/PaymentGate.js"
import { pay, USDC } from "../support/x402.js"
import { search } from "./harness.js"

const terms: PaymentTerms = {
  network: "eip155:5042",
  asset: USDC,
  payTo: privateKeyToAccount(generatePrivateKey()).address,
  eip712: { name: "USDC", version: "2" },
  ceiling: 5_000_000n,
  defaultTimeoutSec: 300,
  minValiditySec: 30
}

const failingFacilitator: Facilitator = {
  kind: "in-process",
  supported: Effect.succeed(["exact eip155:5042"]),
  verify: () => Effect.fail(new PaymentLibraryFailure({ message: "x402 verify failed: boom" })),
  settle: () => Effect.die("a payment that never verified must never be settled")
}

const recordingLedger = () => {
  const calls: Array<string> = []
  const ledger: AuthorizationLedgerShape = {
    claim: (key) => Effect.sync(() => (calls.push(`claim ${key}`), { _tag: "Fresh" as const, token: "token" })),
    release: (key) => Effect.sync(() => void calls.push(`release ${key}`)),
    pending: (key) => Effect.sync(() => void calls.push(`pending ${key}`)),
    spend: (key) => Effect.sync(() => void calls.push(`spend ${key}`)),
    settlements: new InMemoryPendingSettlementStore()
  }
  return { ledger, calls }
}

const brokenLedger: AuthorizationLedgerShape = {
  claim: () => Effect.fail(new LedgerUnavailable({ message: "connection refused" })),
  release: () => Effect.die("nothing was claimed"),
  pending: () => Effect.die("nothing was claimed"),
  spend: () => Effect.die("nothing was claimed"),
  settlements: new InMemoryPendingSettlementStore()
}

const signed = (offer: unknown) => pay(privateKeyToAccount(generatePrivateKey()), offer as LibraryOffer)

/** A real payment for the gate's offer; the test's clock then stands at the instant it was signed (the
 * gate checks the authorization's validity window against the clock). */
const signedNow = (offer: unknown) =>
  Effect.promise(() => signed(offer)).pipe(Effect.tap(() => TestClock.setTime(Date.now())))

it.effect("answers 500 internal when the payment library fails, runs nothing and releases the authorization", () =>
  Effect.gen(function*() {
    const { calls, ledger } = recordingLedger()
    const gate = makeGate(terms, failingFacilitator, ledger)
    const { header } = yield* signedNow(gate.offer(search))
    let runs = 0
    const outcome = yield* Effect.either(
      gate.charge(search, Option.some(SubmittedPayment.header(header)), Effect.sync(() => ++runs))
    )
    expect(outcome).toMatchObject({ _tag: "Left", left: { _tag: "Internal" } })
    expect(runs).toBe(0)
    expect(calls.map((call) => call.split(" ")[0])).toEqual(["claim", "release"])
  }))

it.effect("answers payment_unavailable when the ledger cannot lock the authorization, and runs nothing", () =>
  Effect.gen(function*() {
    const gate = makeGate(terms, failingFacilitator, brokenLedger)
    const { header } = yield* signedNow(gate.offer(search))
    let runs = 0
    const outcome = yield* Effect.either(
      gate.charge(search, Option.some(SubmittedPayment.header(header)), Effect.sync(() => ++runs))
    )
    expect(outcome).toMatchObject({ _tag: "Left", left: { _tag: "PaymentUnavailable" } })
    expect(runs).toBe(0)
  }))

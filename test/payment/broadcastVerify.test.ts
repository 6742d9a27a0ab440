/**
 * `broadcast` mode's verify (the payer's code and the transfer's simulation read together, the
 * simulation being the signature check: a tampered authorization no longer recovers to its payer)
 * refuses what `confirmed` refuses, with the same reasons; and a read-only operation started beside the
 * verification is never served, nor anything charged, when the payment is refused: it is interrupted.
 */
import { Effect, Either, Option } from "effect"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { expect, it } from "vitest"
import type { Paid } from "../../layers/payment/GateShape.js"
import { type Charge, SubmittedPayment } from "../../layers/PaymentGate.js"
import { clientsFor } from "../support/devnet.js"
import { hexOf } from "../support/hex.js"
import { encodePayment } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const harness = gateHarness(6, { SETTLEMENT_MODE: "broadcast" })
const { balances, gate, manifest, signFor } = harness
const readOnlySearch: Charge = { ...search, readOnly: true }

/** Calls `charge` with `header` and a read that answers at once unless `hold`; records whether it was interrupted. */
const callWithRead = async (charge: Charge, header: string, hold = false) => {
  let interrupted = false
  const read = (hold ? Effect.never : Effect.succeed("answer")).pipe(
    Effect.onInterrupt(() => Effect.sync(() => (interrupted = true)))
  )
  let outcome: unknown
  const delta = await balances(async () => {
    outcome = await gate((g) => Effect.either(g.charge(charge, Option.some(SubmittedPayment.header(header)), read)))
    // `broadcast` answers before its settlement is mined: the balances are read once it has landed.
    const sent = Either.getRight(outcome as Either.Either<Paid<string>, unknown>).pipe(
      Option.flatMap((paid) => paid.receipt)
    )
    if (Option.isSome(sent)) {
      await clientsFor(manifest()).public.waitForTransactionReceipt({ hash: hexOf(sent.value.settlement.transaction) })
    }
  })
  return { outcome: outcome as { _tag: string; left?: { _tag: string; reason?: string } }, delta, interrupted }
}

it("refuses a tampered signature and a payer who cannot pay, with the library's reasons, charging nothing", async () => {
  const { payload } = await signFor(search)
  const authorization = (payload.payload as { authorization: Record<string, string> }).authorization
  const raised = { ...payload, payload: { ...payload.payload, authorization: { ...authorization, validAfter: "1" } } }
  const tampered = await callWithRead(readOnlySearch, encodePayment(raised))
  expect(tampered.outcome.left).toMatchObject({
    _tag: "PaymentRejected",
    reason: "invalid_exact_evm_payload_signature"
  })
  expect(tampered.delta).toEqual([0n, 0n])

  const { header } = await signFor(search, privateKeyToAccount(generatePrivateKey()))
  const broke = await callWithRead(readOnlySearch, header)
  expect(broke.outcome.left).toMatchObject({ _tag: "PaymentRejected", reason: "insufficient_funds" })
  expect(broke.delta).toEqual([0n, 0n])
})

it("interrupts a read started beside a payment that is then refused: nothing served, nothing charged", async () => {
  const { header } = await signFor(search, privateKeyToAccount(generatePrivateKey()))
  const refused = await callWithRead(readOnlySearch, header, true)
  expect(refused.outcome.left).toMatchObject({ _tag: "PaymentRejected", reason: "insufficient_funds" })
  expect(refused.interrupted).toBe(true)
  expect(refused.delta).toEqual([0n, 0n])
})

it("serves a read started beside a payment that verifies, and charges it once", async () => {
  const { header } = await signFor(search)
  const served = await callWithRead(readOnlySearch, header)
  expect(served.outcome).toMatchObject({ _tag: "Right", right: { value: "answer" } })
  expect(served.delta).toEqual([-5_000n, 5_000n])
})

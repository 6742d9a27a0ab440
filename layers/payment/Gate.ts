/**
 * The payment gate's flow, transport-free: offer, verify and claim, run, settle. A call is charged
 * only when its operation succeeded (the operation given here must already include validating its
 * answer); a failed operation, a defect or an interruption releases the claimed authorization and
 * settles nothing. Settling happens before the answer leaves, because the answer carries the
 * settlement's transaction hash (`PAYMENT-RESPONSE`).
 */
import { encodePaymentResponseHeader } from "@x402/core/http"
import { Clock, Effect, Either, Exit, Option } from "effect"
import { Internal, PaymentUnavailable } from "../../schema/Errors.js"
import { PaymentDemanded, PaymentRejected, type SettlementReceipt } from "../../schema/Payment.js"
import type { AuthorizationLedgerShape, LedgerUnavailable } from "./AuthorizationLedger.js"
import type { Facilitator, FacilitatorFailure } from "./Facilitator.js"
import type { GateFailure, Paid, PaymentGateShape, PaymentReceipt, Verified } from "./GateShape.js"
import { canonicalTerms, type Charge, offerBook, type PaymentTerms, requirementsFor } from "./Requirements.js"
import { authorizationKey, checkPayment, decodePayment, type Refusal, type SubmittedPayment } from "./Submission.js"

const encodeReceipt = (settlement: SettlementReceipt) => encodePaymentResponseHeader(settlement)

// A claim outlives the authorization a little, for clocks that disagree.
const CLAIM_SLACK_MS = 60_000

const unavailable = (error: FacilitatorFailure | LedgerUnavailable): PaymentUnavailable | Internal =>
  error._tag === "PaymentLibraryFailure"
    ? new Internal({ message: "the payment library failed; nothing was charged", hint: error.message })
    : new PaymentUnavailable({
      message: "the payment facilitator is unavailable; nothing was charged",
      hint: error.message
    })

// A price table that asks for more than the ceiling is the service's bug, not the payer's.
const aboveCeiling = (charge: Charge) =>
  new Internal({ message: `price ${charge.price} is above the single-payment ceiling; nothing was asked for` })

const logFailure = (action: string) => (error: PaymentUnavailable | Internal) =>
  Effect.logWarning(`x402 ${action} failed: ${error.message}`, error.hint ?? "")

export const makeGate = (
  given: PaymentTerms,
  facilitator: Facilitator,
  ledger: AuthorizationLedgerShape
): PaymentGateShape => {
  const terms = canonicalTerms(given)
  const requirements = (charge: Charge) => requirementsFor(terms, charge)
  const { offer, encodeOffer } = offerBook(terms)
  const rejected = (charge: Charge, refusal: Refusal, settlement?: SettlementReceipt) =>
    new PaymentRejected({
      reason: refusal.reason,
      message: refusal.message,
      offer: offer(charge, refusal.reason),
      ...(settlement === undefined ? {} : { settlement })
    })

  const verify = Effect.fn("PaymentGate.verify")(function*(charge: Charge, submitted: SubmittedPayment) {
    if (charge.price > terms.ceiling) return yield* aboveCeiling(charge)
    const offered = requirements(charge)
    const payment = yield* Either.match(decodePayment(submitted), {
      onLeft: (refusal) => Effect.fail(rejected(charge, refusal)),
      onRight: Effect.succeed
    })
    const nowSec = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    yield* Either.match(checkPayment(terms, offered, payment, nowSec), {
      onLeft: (refusal) => Effect.fail(rejected(charge, refusal)),
      onRight: () => Effect.void
    })
    const key = authorizationKey(payment, offered)
    const expiresAtMs = Number(payment.payload.authorization.validBefore) * 1000 + CLAIM_SLACK_MS
    const claim = yield* ledger.claim(key, expiresAtMs).pipe(Effect.mapError(unavailable))
    if (claim === undefined) {
      return yield* rejected(charge, {
        reason: "authorization_used",
        message: "this authorization already paid for a call, or is paying for one now"
      })
    }
    const verdict = yield* facilitator.verify(payment, offered).pipe(
      Effect.mapError(unavailable),
      Effect.tapError(logFailure("verify")),
      Effect.tapError(() => ledger.release(key, claim).pipe(Effect.ignore))
    )
    if (!verdict.isValid) {
      yield* ledger.release(key, claim).pipe(Effect.ignore)
      return yield* rejected(charge, {
        reason: verdict.invalidReason ?? "verification_failed",
        message: `the payment did not verify${
          verdict.invalidMessage === undefined ? "" : `: ${verdict.invalidMessage}`
        }`
      })
    }
    return {
      charge,
      requirements: offered,
      payment,
      payer: verdict.payer ?? payment.payload.authorization.from,
      key,
      claim,
      expiresAtMs
    } satisfies Verified
  })

  const release = (verified: Verified) => ledger.release(verified.key, verified.claim).pipe(Effect.ignore)

  const settle = Effect.fn("PaymentGate.settle")(function*(verified: Verified) {
    const spend = ledger.spend(verified.key, verified.expiresAtMs).pipe(Effect.ignore)
    // An unanswered settlement may still be mined: the authorization stays spent.
    const answer = yield* facilitator.settle(verified.payment, verified.requirements).pipe(
      Effect.tapError(() => spend),
      Effect.mapError(unavailable),
      Effect.tapError(logFailure("settle"))
    )
    const settlement: SettlementReceipt = {
      success: answer.success,
      payer: answer.payer ?? verified.payer,
      transaction: answer.transaction,
      network: answer.network,
      ...(answer.success ? {} : { errorReason: answer.errorReason ?? "settlement_failed" })
    }
    if (answer.success) {
      yield* spend
      return { settlement, header: encodeReceipt(settlement) } satisfies PaymentReceipt
    }
    if (answer.errorReason === "settlement_pending") {
      yield* spend
      return yield* new PaymentUnavailable({
        message: "the settlement was sent but not confirmed in time; do not pay again for this call",
        hint: answer.transaction
      })
    }
    // Broadcast and reverted, or refused before broadcast: either way nothing moved.
    yield* answer.transaction === "" ? release(verified) : spend
    return yield* rejected(verified.charge, {
      reason: settlement.errorReason ?? "settlement_failed",
      message: `the payment could not be settled${answer.errorMessage === undefined ? "" : `: ${answer.errorMessage}`}`
    }, settlement)
  })

  const charge = <A, E, R>(
    charge: Charge,
    payment: Option.Option<SubmittedPayment>,
    operation: Effect.Effect<A, E, R>
  ): Effect.Effect<Paid<A>, E | GateFailure, R> => {
    if (charge.price === 0n) return Effect.map(operation, (value) => ({ value, receipt: Option.none() }))
    if (charge.price > terms.ceiling) return Effect.fail(aboveCeiling(charge))
    return Option.match(payment, {
      onNone: () =>
        Effect.fail(
          // The offer is the book's, checked when built; not checked again on every unpaid call.
          new PaymentDemanded(
            { message: `this call costs ${charge.price} USDC base units`, offer: offer(charge) },
            true
          )
        ),
      // The claim is released whenever the call ends unsettled. A settlement attempt replaces the claim
      // with "spent" in the ledger first, so releasing after one changes nothing.
      onSome: (submitted) =>
        Effect.acquireUseRelease(
          verify(charge, submitted),
          (verified) =>
            Effect.flatMap(operation, (value) =>
              // Once the operation has answered, settling runs to its end even if the caller goes away.
              Effect.map(Effect.uninterruptible(settle(verified)), (receipt) => ({
                value,
                receipt: Option.some(receipt)
              }))),
          (verified, exit) => Exit.isSuccess(exit) ? Effect.void : release(verified)
        ).pipe(Effect.withSpan("PaymentGate.charge", { attributes: { price: charge.price.toString() } }))
    })
  }

  return {
    terms,
    facilitator: facilitator.kind,
    requirements,
    offer,
    encodeOffer,
    encodeReceipt,
    verify,
    settle,
    release,
    charge
  }
}

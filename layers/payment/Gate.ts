/**
 * The payment gate's flow, transport-free: offer, verify and claim, run, settle. A call is charged
 * only when its operation succeeded (the operation given here must already include validating its
 * answer); a failed operation, a defect or an interruption releases the claimed authorization and
 * settles nothing. Settling happens before the answer leaves, because the answer carries the
 * settlement's transaction hash (`PAYMENT-RESPONSE`).
 *
 * The authorization is the call's idempotency key: a settlement sent but not confirmed in time answers
 * `SettlementPending` (its transaction, no new offer) and leaves the authorization pending in the
 * ledger; the same payment resent runs the operation again and settles by reconciling with that
 * transaction, so it is served once the transaction is mined and charged once.
 */
import { Clock, Effect, Either, Exit, Option } from "effect"
import { PaymentDemanded, PaymentRejected, SettlementPending, type SettlementReceipt } from "../../schema/Payment.js"
import type { AuthorizationLedgerShape } from "./AuthorizationLedger.js"
import type { Facilitator } from "./Facilitator.js"
import { aboveCeiling, logFailure, unavailable } from "./GateFailures.js"
import type { GateFailure, Paid, PaymentGateShape, PaymentReceipt, Verified } from "./GateShape.js"
import { Reason, specReason } from "./Reasons.js"
import {
  canonicalTerms,
  type Charge,
  encodeReceipt,
  offerBook,
  PAYMENT_REQUIRED,
  type PaymentTerms,
  requirementsFor
} from "./Requirements.js"
import {
  authorizationKey,
  checkPayment,
  checkValidity,
  decodePayment,
  type Refusal,
  type SubmittedPayment
} from "./Submission.js"

// A claim outlives the authorization a little, for clocks that disagree.
const CLAIM_SLACK_MS = 60_000

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

  const refuse = (charge: Charge) => (refusal: Either.Either<void, Refusal>): Effect.Effect<void, PaymentRejected> =>
    Either.match(refusal, { onLeft: (refusal) => Effect.fail(rejected(charge, refusal)), onRight: () => Effect.void })

  const release = (verified: Verified) => ledger.release(verified.key, verified.claim).pipe(Effect.ignore)

  const verify = Effect.fn("PaymentGate.verify")(function*(charge: Charge, submitted: SubmittedPayment) {
    if (charge.price > terms.ceiling) return yield* aboveCeiling(charge)
    const offered = requirements(charge)
    const payment = yield* Either.match(decodePayment(submitted), {
      onLeft: (refusal) => Effect.fail(rejected(charge, refusal)),
      onRight: Effect.succeed
    })
    yield* refuse(charge)(checkPayment(terms, offered, payment))
    const key = authorizationKey(payment, offered)
    const expiresAtMs = Number(payment.payload.authorization.validBefore) * 1000 + CLAIM_SLACK_MS
    const claim = yield* ledger.claim(key, expiresAtMs).pipe(Effect.mapError(unavailable))
    if (claim._tag === "Taken") {
      return yield* rejected(charge, {
        reason: Reason.nonceUsed,
        message: "this authorization already paid for a call, or is paying for one now"
      })
    }
    const verified: Verified = {
      charge,
      requirements: offered,
      payment,
      payer: payment.payload.authorization.from,
      key,
      claim: claim.token,
      expiresAtMs,
      pending: claim._tag === "Pending" ? claim.transaction : undefined
    }
    // Sent already: whether it lands is settling's to find out, whatever the clock says now.
    if (claim._tag === "Pending") return verified
    const nowSec = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    yield* refuse(charge)(checkValidity(terms, payment, nowSec)).pipe(Effect.tapError(() => release(verified)))
    const verdict = yield* facilitator.verify(payment, offered).pipe(
      Effect.mapError(unavailable),
      Effect.tapError(logFailure("verify")),
      Effect.tapError(() => release(verified))
    )
    if (!verdict.isValid) {
      yield* release(verified)
      return yield* rejected(charge, {
        reason: specReason(verdict.invalidReason ?? Reason.unexpectedVerify),
        message: `the payment did not verify${
          verdict.invalidMessage === undefined ? "" : `: ${verdict.invalidMessage.split("\n")[0]}`
        }`
      })
    }
    return { ...verified, payer: verdict.payer ?? verified.payer } satisfies Verified
  })

  const settle = Effect.fn("PaymentGate.settle")(function*(verified: Verified) {
    const spend = ledger.spend(verified.key, verified.expiresAtMs).pipe(Effect.ignore)
    // An unanswered settlement may still be mined: the authorization stays spent, unless it was
    // already pending on a known transaction, which the next resend reconciles with again.
    const answer = yield* facilitator.settle(verified.payment, verified.requirements).pipe(
      Effect.tapError(() => verified.pending === undefined ? spend : release(verified)),
      Effect.mapError(unavailable),
      Effect.tapError(logFailure("settle"))
    )
    const settlement: SettlementReceipt = {
      success: answer.success,
      payer: answer.payer ?? verified.payer,
      transaction: answer.transaction,
      network: answer.network,
      ...(answer.success ? {} : { errorReason: specReason(answer.errorReason ?? Reason.unexpectedSettle) })
    }
    if (answer.success) {
      yield* spend
      return { settlement, header: encodeReceipt(settlement) } satisfies PaymentReceipt
    }
    if (answer.errorReason === Reason.settlementPending && answer.transaction !== "") {
      yield* ledger.pending(verified.key, verified.claim, answer.transaction, verified.expiresAtMs).pipe(
        Effect.orElse(() => spend)
      )
      return yield* new SettlementPending({
        message:
          "the payment's settlement was sent but is not confirmed yet; resend the same payment, do not pay again",
        settlement
      })
    }
    // Broadcast and reverted, or refused before broadcast: either way nothing moved.
    yield* answer.transaction === "" ? release(verified) : spend
    return yield* rejected(verified.charge, {
      reason: settlement.errorReason ?? Reason.unexpectedSettle,
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
            { message: `this call costs ${charge.price} USDC base units`, offer: offer(charge, PAYMENT_REQUIRED) },
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

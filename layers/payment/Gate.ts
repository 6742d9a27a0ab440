/**
 * The payment gate's flow, transport-free: offer, verify and claim, run, settle. A call is charged
 * only when its operation succeeded (the operation given here must already include validating its
 * answer); a failed operation, a defect or an interruption releases the claimed authorization and
 * settles nothing. Settling happens before the answer leaves, because the answer carries the
 * settlement's transaction hash (`PAYMENT-RESPONSE`).
 *
 * The authorization is the call's idempotency key, claimed before anything runs. How the answer waits
 * for its settlement is the settlement mode's: until mined (`confirmed`, ./Confirmed.ts) or until sent
 * (`broadcast`, ./Broadcast.ts, which also admits a payer only without debt and while its balance covers
 * every call of it not yet confirmed).
 */
import type { VerifyResponse } from "@x402/core/types"
import { Clock, Effect, Either, Exit, Fiber, Option } from "effect"
import { PaymentDemanded, type PaymentRejected } from "../../schema/Payment.js"
import { withoutStack } from "../../schema/Stackless.js"
import type { AuthorizationLedgerShape } from "./AuthorizationLedger.js"
import type { BroadcastSettlement, Reject } from "./Broadcast.js"
import { confirmedSettlement } from "./Confirmed.js"
import { nothingUnconfirmed } from "./ExposureBook.js"
import type { Facilitator, FacilitatorFailure } from "./Facilitator.js"
import { aboveCeiling, logFailure, rejection, unavailable } from "./GateFailures.js"
import type { GateFailure, Paid, PaymentGateShape, Verified } from "./GateShape.js"
import { countPayment } from "./PaymentMetrics.js"
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
  ledger: AuthorizationLedgerShape,
  // Settlement mode `broadcast` when given (./Broadcast.ts); `confirmed` otherwise.
  broadcast?: (reject: Reject) => BroadcastSettlement
): PaymentGateShape => {
  const terms = canonicalTerms(given)
  const requirements = (charge: Charge) => requirementsFor(terms, charge)
  const { offer, encodeOffer } = offerBook(terms)
  const rejected = rejection(offer)

  const refuse = (charge: Charge) => (refusal: Either.Either<void, Refusal>): Effect.Effect<void, PaymentRejected> =>
    Either.match(refusal, { onLeft: (refusal) => Effect.fail(rejected(charge, refusal)), onRight: () => Effect.void })

  const mode = broadcast?.((verified, refusal, settlement) => rejected(verified.charge, refusal, settlement))
  const release = (verified: Verified) =>
    ledger.release(verified.key, verified.claim).pipe(
      Effect.ignore,
      Effect.zipRight(mode?.close(verified) ?? Effect.void)
    )

  const verify = Effect.fn("PaymentGate.verify")(function*(charge: Charge, submitted: SubmittedPayment) {
    if (charge.price > terms.ceiling) return yield* aboveCeiling(charge)
    const offered = requirements(charge)
    const payment = yield* Either.match(decodePayment(submitted), {
      onLeft: (refusal) => Effect.fail(rejected(charge, refusal)),
      onRight: (payment) => Effect.as(refuse(charge)(checkPayment(terms, offered, payment)), payment)
    }).pipe(Effect.withSpan("PaymentGate.decode"))
    const key = authorizationKey(payment, offered)
    const expiresAtMs = Number(payment.payload.authorization.validBefore) * 1000 + CLAIM_SLACK_MS
    const claim = yield* ledger.claim(key, expiresAtMs).pipe(
      Effect.mapError(unavailable),
      Effect.withSpan("PaymentGate.claim")
    )
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
      pending: claim._tag === "Pending" ? claim.transaction : undefined,
      atRisk: false
    }
    // Sent already: whether it lands is settling's to find out, whatever the clock says now.
    if (claim._tag === "Pending") return verified
    const nowSec = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    yield* refuse(charge)(checkValidity(terms, payment, nowSec)).pipe(Effect.tapError(() => release(verified)))
    const asked = (verdict: Effect.Effect<VerifyResponse, FacilitatorFailure>) =>
      verdict.pipe(
        Effect.withSpan("PaymentGate.facilitatorVerify"),
        Effect.mapError(unavailable),
        Effect.tapError(logFailure("verify"))
      )
    const { atRisk, verdict } = yield* (mode === undefined
      ? Effect.map(asked(facilitator.verify(payment, offered)), (verdict) => ({ verdict, atRisk: false }))
      : mode.admit(verified, (pending) => asked(mode.verify(payment, offered, pending)))).pipe(
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
    return { ...verified, atRisk, payer: verdict.payer ?? verified.payer } satisfies Verified
  })

  const settle = mode?.settle ??
    confirmedSettlement(
      facilitator,
      ledger,
      release,
      (verified, refusal, settlement) => rejected(verified.charge, refusal, settlement)
    )

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
          withoutStack(() =>
            new PaymentDemanded(
              { message: `this call costs ${charge.price} USDC base units`, offer: offer(charge, PAYMENT_REQUIRED) },
              true
            )
          )
        ),
      // The claim is released whenever the call ends unsettled. A settlement attempt replaces the claim
      // with "spent" in the ledger first, so releasing after one changes nothing.
      onSome: (submitted) => {
        // In `broadcast` the settlement of a read started beside the verification is signed ahead when the
        // verdict comes before the read's answer (./Broadcast.ts `draft`): the read is then mostly waiting
        // for the node, and the signature leaves the answer's path. `running`: whether it still runs.
        const answer = (verified: Verified, answered: Effect.Effect<A, E, R>, running: Effect.Effect<boolean>) =>
          Effect.flatMap(
            mode === undefined ? answered : Effect.zipRight(
              Effect.flatMap(running, (still) => still ? mode.draft(verified) : Effect.void),
              answered
            ),
            (value) =>
              // Once the operation has answered, settling runs to its end even if the caller goes away.
              Effect.map(Effect.uninterruptible(settle(verified)), (receipt) => ({
                value,
                receipt: Option.some(receipt)
              }))
          )
        const paid = (
          verifying: Effect.Effect<Verified, GateFailure>,
          answered: Effect.Effect<A, E, R>,
          running: Effect.Effect<boolean> = Effect.succeed(false)
        ) =>
          Effect.acquireUseRelease(
            verifying,
            (verified) => answer(verified, answered, running),
            (verified, exit) => Exit.isSuccess(exit) ? Effect.void : release(verified)
          ).pipe(
            Effect.onExit(countPayment(charge.price, mode === undefined ? "settled" : "unconfirmed")),
            Effect.withSpan("PaymentGate.charge", { attributes: { price: charge.price.toString() } })
          )
        const operating = Effect.withSpan(operation, "PaymentGate.operation")
        // A read may start beside the verification (in `broadcast`, where verifying is the wait); its
        // answer waits for the verdict, and a refused payment interrupts it.
        if (mode === undefined || charge.readOnly !== true) return paid(verify(charge, submitted), operating)
        return Effect.flatMap(Effect.fork(operating), (started) =>
          paid(
            Effect.onExit(verify(charge, submitted), (exit) =>
              Exit.isSuccess(exit) ? Effect.void : Fiber.interrupt(started)),
            Fiber.join(started),
            Effect.map(Fiber.poll(started), Option.isNone)
          ))
      }
    })
  }

  return {
    terms,
    facilitator: facilitator.kind,
    settlementMode: mode === undefined ? "confirmed" : "broadcast",
    exposure: mode?.snapshot ?? Effect.succeed(nothingUnconfirmed),
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

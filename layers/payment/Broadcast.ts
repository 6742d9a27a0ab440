/**
 * Settlement mode `broadcast` (docs/payments.md#settlement-modes): the payment is verified as in
 * `confirmed` (signature, amount, recipient, validity, and `transferWithAuthorization` simulated at the
 * head), the operation runs, its settlement is sent, and the answer leaves naming the transaction while
 * the receipt is awaited in the background. The risk stays bounded: a payer is admitted while its
 * balance at the head covers every call of it not yet confirmed plus the new one (`admit`, one payer's
 * admissions in turn), a payer whose served settlement failed owes it and is refused until it pays or
 * the refusal time passes, and past the caps on unconfirmed value (per payer, in total) a call waits for
 * its receipt as in `confirmed`.
 */
import type { VerifyResponse } from "@x402/core/types"
import { Effect, Either, Fiber, type Scope } from "effect"
import type { Internal, PaymentUnavailable } from "../../schema/Errors.js"
import type { PaymentRejected, SettlementReceipt } from "../../schema/Payment.js"
import type { AuthorizationLedgerShape } from "./AuthorizationLedger.js"
import { type BroadcastChain, followUp } from "./BroadcastFollow.js"
import type { ExposureBook, Unconfirmed } from "./ExposureBook.js"
import { FacilitatorUnavailable } from "./Facilitator.js"
import { unavailable } from "./GateFailures.js"
import type { PaymentReceipt, Verified } from "./GateShape.js"
import type { CoveredVerify } from "./QuickVerify.js"
import { Reason } from "./Reasons.js"
import { encodeReceipt } from "./Requirements.js"
import type { Draft, Unknown } from "./SettlementSender.js"
import type { Refusal } from "./Submission.js"
import { checkedHex, transferCall } from "./Transfer.js"

export type Reject = (verified: Verified, refusal: Refusal, settlement?: SettlementReceipt) => PaymentRejected

const notTaken = "the node did not take the transaction"

const unreachable = (action: string) => (error: unknown) =>
  unavailable(
    new FacilitatorUnavailable({
      message: `${action} failed: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`
    })
  )

export const broadcastSettlement = (
  chain: BroadcastChain,
  book: ExposureBook,
  ledger: AuthorizationLedgerShape,
  verify: CoveredVerify,
  reject: Reject,
  scope: Scope.Scope
) => {
  // The one settlement signed ahead (`draft`): the latest call's, by its authorization key.
  let ahead: { readonly key: string; readonly draft: Promise<Draft | undefined> } | undefined
  /**
   * Signs `verified`'s settlement ahead, while its operation runs: a draft for the nonce and fees the next
   * settlement would get now, taking neither (./SettlementSender.ts `prepare`), which the settle uses
   * if nothing took that nonce meanwhile. One draft at a time, the latest call's: calls at once from many
   * payers would mostly draft a nonce another call takes first. Nothing is taken, nothing sent: an
   * operation that fails leaves only a dropped draft.
   */
  const draft = (verified: Verified) =>
    Effect.sync(() => {
      const signing = chain.sender.prepare(transferCall(verified.requirements, verified.payment)).catch(() => undefined)
      ahead = { key: verified.key, draft: signing }
    })
  /** The call's draft, once signed (it was started before the settle, so this wait is not a second signature). */
  const takeDraft = (key: string): Promise<Draft | undefined> => {
    const slot = ahead
    if (slot?.key !== key) return Promise.resolve(undefined)
    ahead = undefined
    return slot.draft
  }

  const receiptOf = (verified: Verified, transaction: string, success: boolean): SettlementReceipt => ({
    success,
    payer: verified.payer,
    transaction,
    network: verified.requirements.network,
    ...(success ? {} : { errorReason: Reason.transactionState })
  })

  /**
   * Refuses an indebted payer, unless its debt is paid; then, in the payer's turn, verifies the payment
   * with `check` against the payer's calls not yet confirmed and records it among them when valid: whether
   * it may be served before its settlement is mined is the caps' to say.
   */
  const admit = Effect.fn("PaymentGate.admit")(function*(
    verified: Verified,
    check: (pending: ReadonlyArray<Unconfirmed>) => Effect.Effect<VerifyResponse, PaymentUnavailable | Internal>
  ) {
    const debt = yield* book.debtOf(verified.payer).pipe(Effect.mapError(unavailable))
    if (debt !== undefined) {
      const paid = yield* Effect.tryPromise(() => chain.paidSince(checkedHex(verified.payer), debt.sinceBlock)).pipe(
        Effect.mapError(unreachable("reading the payer's transfers"))
      )
      if (paid < debt.value) {
        return yield* reject(verified, {
          reason: Reason.transactionState,
          message:
            `a settlement of this payer failed after its call was served (${debt.transaction}: ${debt.reason}); ` +
            `it owes ${debt.value} USDC base units: transfer them to the fee recipient, or wait until ` +
            `${new Date(debt.untilMs).toISOString()}`
        }, receiptOf(verified, debt.transaction, false))
      }
      yield* book.forgive(verified.payer).pipe(Effect.mapError(unavailable))
    }
    const taken = yield* book.take(verified.payer, verified.key, verified.expiresAtMs).pipe(
      Effect.mapError(unavailable)
    )
    if (!taken) {
      return yield* reject(verified, {
        reason: Reason.expiring,
        message: "the authorization ended while this payer's other calls were being admitted: " +
          "sign a new one and call again"
      })
    }
    return yield* Effect.gen(function*() {
      const pending = yield* book.unconfirmedOf(verified.payer).pipe(Effect.mapError(unavailable))
      const verdict = yield* check(pending)
      if (!verdict.isValid) return { verdict, atRisk: false }
      const entry = {
        key: verified.key,
        nonce: verified.payment.payload.authorization.nonce,
        value: verified.charge.price
      }
      // An earlier run's settlements not yet mined, or Redis not answering: settle as in `confirmed`, the
      // safe side (an entry Redis did not record is then never served before it lands).
      const early = yield* Effect.tryPromise(() => chain.inheritedLanded()).pipe(Effect.orElseSucceed(() => false))
      const atRisk = yield* book.reserve(verified.payer, entry, verified.expiresAtMs, early).pipe(
        Effect.orElseSucceed(() => false)
      )
      return { verdict, atRisk }
    }).pipe(Effect.ensuring(book.free(verified.payer, verified.key)))
  })

  const { confirmation, failure, filled, followed: served } = followUp(chain, book)

  /**
   * Signs the settlement, sends it, and answers with its transaction once the node has taken it,
   * confirming it in the background. A settlement the node did not take is not served: after the answer
   * nothing would send it again once the service closed, and a restarted service, numbering from the
   * node's pending count, would give its nonce to another settlement, so the payer would be served and
   * never charged. It is answered 502 uncharged and its nonce used up by an empty transaction.
   */
  const settle = Effect.fn("PaymentGate.settleBroadcast")(function*(verified: Verified) {
    // Counted when admitted, in the step that checks the caps, so no other call (on any replica) took the
    // same room or counted on the same balance.
    const waitHere = !verified.atRisk
    const release = book.close(verified.payer, verified.key)
    const done = <A, E>(effect: Effect.Effect<A, E>) => Effect.ensuring(effect, release)
    // From signing on, a nonce of the settlement key is taken and later settlements are sent behind it: it
    // is sent and followed in the service's scope whatever happens to this request (a payer that hangs up
    // now would otherwise leave a nonce no one sends, and every settlement after it waiting).
    const { followed, sending, transaction } = yield* Effect.uninterruptible(
      Effect.gen(function*() {
        const sent = yield* Effect.tryPromise(async () =>
          chain.sender.sign(
            transferCall(verified.requirements, verified.payment),
            await takeDraft(verified.key)
          )
        )
          .pipe(
            Effect.withSpan("PaymentGate.sign"),
            Effect.mapError(unreachable("signing the settlement")),
            Effect.tapError(() => release)
          )
        // Signed with a nonce: it will be sent, so the authorization is spent whatever happens next.
        yield* ledger.spend(verified.key, verified.expiresAtMs).pipe(Effect.ignore)
        const transaction = sent.hashes[0] ?? ""
        // Once begun, even a closing service sends it (its transports bound a send's wait);
        // following it is interruptible (`confirmation`).
        // One the node did not take is not served, so no longer counted as served, before anyone hears.
        const sending = yield* Effect.forkIn(
          Effect.withSpan(Effect.promise(() => chain.sender.submit(sent)), "PaymentGate.send").pipe(
            Effect.tap((taken) => taken ? Effect.void : release)
          ),
          scope
        )
        // What the settlement came to, as far as the answer waits for it.
        const follow = Effect.flatMap(
          Fiber.join(sending),
          (taken): Effect.Effect<Either.Either<string, string | Unknown>> =>
            !taken
              // Not served: its nonce used up by an empty transaction.
              ? filled(verified, sent).pipe(done, Effect.as(Either.left(notTaken)))
              : waitHere
              // Past the cap: as in `confirmed`, the answer waits for the receipt and a failure is not served.
              ? Effect.either(done(confirmation(verified, sent)))
              : served(verified, sent).pipe(done, Effect.as(Either.right(transaction)))
        )
        // Forked uninterruptible, whatever the caller's mode, so a closing scope cannot stop it before it
        // is sent.
        return { transaction, sending, followed: yield* Effect.forkIn(follow, scope) }
      })
    )
    if (!(yield* Fiber.join(sending))) return yield* unreachable("broadcasting the settlement")(notTaken)
    const landed = waitHere ? yield* Fiber.join(followed) : Either.right(transaction)
    if (Either.isLeft(landed)) {
      return yield* reject(verified, {
        reason: Reason.transactionState,
        message: `the payment could not be settled: ${failure(landed.left)}`
      }, receiptOf(verified, transaction, false))
    }
    const settlement = receiptOf(verified, landed.right, true)
    return { settlement, header: encodeReceipt(settlement) } satisfies PaymentReceipt
  })

  return {
    admit,
    draft,
    settle,
    verify,
    close: (verified: Verified) =>
      Effect.zipRight(Effect.sync(() => void takeDraft(verified.key)), book.close(verified.payer, verified.key)),
    snapshot: book.snapshot
  }
}

export type { BroadcastChain }
export type BroadcastSettlement = ReturnType<typeof broadcastSettlement>

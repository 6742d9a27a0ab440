/**
 * Settlement mode `confirmed`: the answer waits for its settlement to be mined, so `PAYMENT-RESPONSE`
 * names a transaction that moved the payment. A settlement sent but not mined within the receipt wait
 * answers `SettlementPending` and leaves the authorization pending in the ledger on its transaction; the
 * same payment resent reconciles with that transaction instead of paying again.
 */
import { Effect } from "effect"
import { SettlementPending, type SettlementReceipt } from "../../schema/Payment.js"
import type { AuthorizationLedgerShape } from "./AuthorizationLedger.js"
import type { Reject } from "./Broadcast.js"
import type { Facilitator } from "./Facilitator.js"
import { logFailure, unavailable } from "./GateFailures.js"
import type { PaymentReceipt, Verified } from "./GateShape.js"
import { Reason, specReason } from "./Reasons.js"
import { encodeReceipt } from "./Requirements.js"

export const confirmedSettlement = (
  facilitator: Facilitator,
  ledger: AuthorizationLedgerShape,
  release: (verified: Verified) => Effect.Effect<void>,
  rejected: Reject
) =>
  Effect.fn("PaymentGate.settle")(function*(verified: Verified) {
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
    return yield* rejected(verified, {
      reason: settlement.errorReason ?? Reason.unexpectedSettle,
      message: `the payment could not be settled${answer.errorMessage === undefined ? "" : `: ${answer.errorMessage}`}`
    }, settlement)
  })

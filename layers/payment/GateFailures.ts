/**
 * How the gate's refusals and own failures read: a refusal of the payer with its new offer; the
 * facilitator or the ledger failing (`payment_unavailable`, or `internal` when the payment library itself
 * broke); a price above the ceiling (the service's bug). Nothing is charged in any of them.
 */
import { Effect } from "effect"
import { Internal, PaymentUnavailable } from "../../schema/Errors.js"
import { PaymentRejected, type PaymentRequired, type SettlementReceipt } from "../../schema/Payment.js"
import { withoutStack } from "../../schema/Stackless.js"
import type { LedgerUnavailable } from "./AuthorizationLedger.js"
import type { FacilitatorFailure } from "./Facilitator.js"
import type { Charge } from "./Requirements.js"
import type { Refusal } from "./Submission.js"

/** A refusal of the payer, with a fresh offer naming the reason (and the failed settlement, if any). */
export const rejection =
  (offer: (charge: Charge, error: string) => PaymentRequired) =>
  (charge: Charge, refusal: Refusal, settlement?: SettlementReceipt) =>
    withoutStack(() =>
      new PaymentRejected({
        reason: refusal.reason,
        message: refusal.message,
        offer: offer(charge, refusal.reason),
        ...(settlement === undefined ? {} : { settlement })
      })
    )

export const unavailable = (error: FacilitatorFailure | LedgerUnavailable): PaymentUnavailable | Internal =>
  error._tag === "PaymentLibraryFailure"
    ? new Internal({ message: "the payment library failed; nothing was charged", hint: error.message })
    : new PaymentUnavailable({
      message: "the payment facilitator is unavailable; nothing was charged",
      hint: error.message
    })

// A price table that asks for more than the ceiling is the service's bug, not the payer's.
export const aboveCeiling = (charge: Charge) =>
  new Internal({ message: `price ${charge.price} is above the single-payment ceiling; nothing was asked for` })

export const logFailure = (action: string) => (error: PaymentUnavailable | Internal) =>
  Effect.logWarning(`x402 ${action} failed: ${error.message}`, error.hint ?? "")

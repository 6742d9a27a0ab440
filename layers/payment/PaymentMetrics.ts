/**
 * A paid call's payment outcome and value, counted once when the gate's charge ends: `settled` (the
 * transfer mined before the answer), `unconfirmed` (answered on a sent transfer: settlement mode
 * `broadcast`, or a settlement still pending), `failed` (the settlement or the facilitator failed),
 * `refused` (the payment was turned down, by reason). The operation's own failure is no payment outcome:
 * nothing was charged and the request metrics count it.
 */
import { Cause, Effect, Exit, Option } from "effect"
import { labelled, payments, paymentValue } from "../metrics/Metrics.js"

const paymentsOf = labelled(payments)
const valueOf = labelled(paymentValue)

const count = (outcome: string, reason: string, price?: bigint) =>
  Effect.sync(() => {
    paymentsOf({ outcome, reason }).unsafeUpdate(1, [])
    if (price !== undefined) valueOf({ outcome }).unsafeUpdate(price, [])
  })

export const countPayment = (price: bigint, answered: "settled" | "unconfirmed") => <A, E>(exit: Exit.Exit<A, E>) => {
  if (Exit.isSuccess(exit)) return count(answered, "", price)
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure)) return Effect.void
  const error = failure.value as { readonly _tag?: string; readonly reason?: string; readonly settlement?: unknown }
  switch (error._tag) {
    case "SettlementPending":
      return count("unconfirmed", "settlement_pending", price)
    case "PaymentRejected":
      return error.settlement === undefined ? count("refused", error.reason ?? "") : count("failed", error.reason ?? "")
    case "PaymentUnavailable":
    case "Internal":
      return count("failed", error._tag === "Internal" ? "internal" : "payment_unavailable")
    default:
      return Effect.void
  }
}

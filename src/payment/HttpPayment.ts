/**
 * The payment gate's outcomes in HTTP terms, as the spec words them: which header carries what, and
 * what a refusal looks like (402 with `PAYMENT-REQUIRED` and the `payment_required` envelope when no
 * payment was sent; 402 with an empty `{}` body and no `next` when the payment layer refused one; 402
 * with only `PAYMENT-RESPONSE` when the settlement is pending, as the x402 reference server answers).
 * No 402 may be cached (`Cache-Control: no-store`). Other failures (`payment_unavailable`, `internal`)
 * are ordinary domain errors for the error table.
 */
import { Option } from "effect"
import { type PaymentGateShape, type PaymentReceipt, SubmittedPayment } from "../../layers/PaymentGate.js"
import { type ErrorBody, toErrorBody } from "../../schema/ErrorBody.js"
import { PaymentDemanded, PaymentRejected, SettlementPending } from "../../schema/Payment.js"

export const PAYMENT_SIGNATURE = "payment-signature"
export const PAYMENT_REQUIRED = "PAYMENT-REQUIRED"
export const PAYMENT_RESPONSE = "PAYMENT-RESPONSE"

/** Headers a browser agent must be allowed to read (for `Access-Control-Expose-Headers`). */
export const exposedPaymentHeaders = [PAYMENT_REQUIRED, PAYMENT_RESPONSE] as const

/** Every 402: an offer or a pending settlement is for this request only, never for a cache. */
const NO_STORE = { "Cache-Control": "no-store" } as const

/** What the gate answers instead of running the operation, written as a 402. */
export type PaymentRefusal = PaymentDemanded | PaymentRejected | SettlementPending

export const isPaymentRefusal = (failure: unknown): failure is PaymentRefusal =>
  failure instanceof PaymentDemanded || failure instanceof PaymentRejected || failure instanceof SettlementPending

export interface PaymentRefusalAnswer {
  readonly status: 402
  readonly headers: Readonly<Record<string, string>>
  readonly body: ErrorBody | Record<string, never>
}

export const refusalAnswer = (gate: PaymentGateShape, refusal: PaymentRefusal): PaymentRefusalAnswer => {
  switch (refusal._tag) {
    case "PaymentDemanded":
      return {
        status: 402,
        headers: { ...NO_STORE, [PAYMENT_REQUIRED]: gate.encodeOffer(refusal.offer) },
        body: toErrorBody(refusal.error)
      }
    case "PaymentRejected":
      return {
        status: 402,
        headers: {
          ...NO_STORE,
          [PAYMENT_REQUIRED]: gate.encodeOffer(refusal.offer),
          ...(refusal.settlement === undefined ? {} : { [PAYMENT_RESPONSE]: gate.encodeReceipt(refusal.settlement) })
        },
        body: {}
      }
    case "SettlementPending":
      return {
        status: 402,
        headers: { ...NO_STORE, [PAYMENT_RESPONSE]: gate.encodeReceipt(refusal.settlement) },
        body: {}
      }
  }
}

/** The `PAYMENT-RESPONSE` header of a paid answer; none for a free one. */
export const receiptHeaders = (receipt: Option.Option<PaymentReceipt>): Readonly<Record<string, string>> =>
  Option.match(receipt, { onNone: () => ({}), onSome: ({ header }) => ({ [PAYMENT_RESPONSE]: header }) })

/** The payment a request carries in `PAYMENT-SIGNATURE`, if any. */
export const submittedPaymentOf = (headers: Readonly<Record<string, string | undefined>>) =>
  Option.map(Option.fromNullable(headers[PAYMENT_SIGNATURE]), SubmittedPayment.header)

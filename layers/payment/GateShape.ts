/**
 * What the payment gate offers its callers (the HTTP and MCP adapters, benchmarks, embedders), apart
 * from how it does it (`Gate.ts`).
 */
import type { Effect, Option } from "effect"
import type { Internal, PaymentUnavailable } from "../../schema/Errors.js"
import type {
  PaymentDemanded,
  PaymentPayload,
  PaymentRejected,
  PaymentRequired,
  PaymentRequirements,
  SettlementPending,
  SettlementReceipt
} from "../../schema/Payment.js"
import type { ExposureSnapshot } from "./ExposureBook.js"
import type { Facilitator } from "./Facilitator.js"
import type { SettlementMode } from "./PaymentConfig.js"
import type { Charge, PaymentTerms } from "./Requirements.js"
import type { SubmittedPayment } from "./Submission.js"

/** A settled payment: the receipt and its `PAYMENT-RESPONSE` header value. */
export interface PaymentReceipt {
  readonly settlement: SettlementReceipt
  readonly header: string
}

/** An operation's answer and, when the call was paid, its settlement. */
export interface Paid<A> {
  readonly value: A
  readonly receipt: Option.Option<PaymentReceipt>
}

/** Every way the gate can refuse or fail a call, besides the operation's own errors. */
export type GateFailure = PaymentDemanded | PaymentRejected | SettlementPending | PaymentUnavailable | Internal

/** A verified payment whose authorization this call holds. */
export interface Verified {
  readonly charge: Charge
  readonly requirements: PaymentRequirements
  readonly payment: PaymentPayload
  readonly payer: string
  readonly key: string
  readonly claim: string
  readonly expiresAtMs: number
  /** The transaction an earlier call sent for this payment and could not confirm: settling reconciles with it. */
  readonly pending: string | undefined
  /** Broadcast: may be served before its settlement is mined (under the caps); otherwise it waits for it. */
  readonly atRisk: boolean
}

export interface PaymentGateShape {
  readonly terms: PaymentTerms
  readonly facilitator: Facilitator["kind"]
  /** When a paid answer leaves: once its settlement is mined, or once it is sent. */
  readonly settlementMode: SettlementMode
  /** Served answers whose settlement is not confirmed yet, and payers' debts (always empty in `confirmed`). */
  readonly exposure: Effect.Effect<ExposureSnapshot>
  /** The requirements a charge offers; the same charge always gives the same requirements. */
  readonly requirements: (charge: Charge) => PaymentRequirements
  /** The `PAYMENT-REQUIRED` body (an MCP payment-required result carries it as it is). */
  readonly offer: (charge: Charge, error?: string) => PaymentRequired
  /** Base64 JSON of an offer, the `PAYMENT-REQUIRED` header value. */
  readonly encodeOffer: (offer: PaymentRequired) => string
  /** Base64 JSON of a settlement receipt, the `PAYMENT-RESPONSE` header value. */
  readonly encodeReceipt: (settlement: SettlementReceipt) => string
  /** Decodes, checks and verifies a payment and claims its authorization for this call. */
  readonly verify: (
    charge: Charge,
    payment: SubmittedPayment
  ) => Effect.Effect<Verified, PaymentRejected | PaymentUnavailable | Internal>
  /** Settles a verified payment, or releases its authorization when the call ends unpaid. */
  readonly settle: (
    verified: Verified
  ) => Effect.Effect<PaymentReceipt, PaymentRejected | SettlementPending | PaymentUnavailable | Internal>
  readonly release: (verified: Verified) => Effect.Effect<void>
  /**
   * The whole flow for one call. A free charge (price 0) runs the operation and ignores any payment;
   * otherwise no payment fails `PaymentDemanded`, and a payment is verified, the operation run, and
   * the payment settled only if the operation succeeded.
   */
  readonly charge: <A, E, R>(
    charge: Charge,
    payment: Option.Option<SubmittedPayment>,
    operation: Effect.Effect<A, E, R>
  ) => Effect.Effect<Paid<A>, E | GateFailure, R>
}

/**
 * x402 protocol version 2 on the wire: what a paid operation offers (`PAYMENT-REQUIRED`), what a payer
 * sends back (`PAYMENT-SIGNATURE`, or `_meta["x402/payment"]` over MCP) and the settlement receipt
 * (`PAYMENT-RESPONSE`). Only the `exact` scheme with an EIP-3009 authorization is accepted, so a
 * payment's payer and nonce are always known before anything runs.
 */
import { Schema } from "effect"
import { PaymentRequired as PaymentRequiredError } from "./Errors.js"

const Hex = (bytes: number) =>
  Schema.String.pipe(Schema.pattern(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`), {
    message: () => `expected 0x and ${bytes} bytes of hex`
  }))
const EvmAddress = Hex(20)
const Integer = Schema.String.pipe(Schema.pattern(/^(0|[1-9][0-9]{0,77})$/, {
  message: () => "expected a non-negative integer string"
}))

const CaipNetwork = Schema.TemplateLiteral(Schema.String, ":", Schema.String)

export const PaymentRequirements = Schema.Struct({
  scheme: Schema.String,
  network: CaipNetwork,
  asset: Schema.String,
  amount: Schema.String,
  payTo: Schema.String,
  maxTimeoutSeconds: Schema.Number,
  extra: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    // Any JSON object: said with `type` alone, since a schema for "any value" has no keyword to say it with.
    jsonSchema: { type: "object", description: "scheme details: for `exact`, the asset's EIP-712 `name` and `version`" }
  })
}).annotations({ identifier: "PaymentRequirements" })
export type PaymentRequirements = typeof PaymentRequirements.Type

export const ResourceInfo = Schema.Struct({
  url: Schema.String,
  description: Schema.optionalWith(Schema.String, { exact: true }),
  mimeType: Schema.optionalWith(Schema.String, { exact: true })
})
export type ResourceInfo = typeof ResourceInfo.Type

/** An x402 extension's declaration (`info` and its `schema`), by the extension's identifier. */
const Extension = Schema.Unknown.annotations({ jsonSchema: { type: "object" } })

/** The body of `PAYMENT-REQUIRED` (and of a paid MCP tool's payment-required result). */
export const PaymentRequired = Schema.Struct({
  x402Version: Schema.Literal(2),
  error: Schema.optionalWith(Schema.String, { exact: true }),
  resource: ResourceInfo,
  accepts: Schema.Array(PaymentRequirements),
  extensions: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Extension }), { exact: true })
}).annotations({ identifier: "PaymentRequired" })
export type PaymentRequired = typeof PaymentRequired.Type

/** An EIP-3009 `transferWithAuthorization` signed by the payer. */
export const TransferAuthorization = Schema.Struct({
  from: EvmAddress,
  to: EvmAddress,
  value: Integer,
  validAfter: Integer,
  validBefore: Integer,
  nonce: Hex(32)
})
export type TransferAuthorization = typeof TransferAuthorization.Type

/** What a payer sends: the requirements it accepted and its signed authorization. */
export const PaymentPayload = Schema.Struct({
  x402Version: Schema.Literal(2),
  resource: Schema.optionalWith(ResourceInfo, { exact: true }),
  accepted: PaymentRequirements,
  payload: Schema.Struct({
    signature: Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]+$/)),
    authorization: TransferAuthorization
  }),
  extensions: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { exact: true })
}).annotations({ identifier: "PaymentPayload" })
export type PaymentPayload = typeof PaymentPayload.Type

/** The body of `PAYMENT-RESPONSE`. */
export const SettlementReceipt = Schema.Struct({
  success: Schema.Boolean,
  payer: Schema.optionalWith(Schema.String, { exact: true }),
  transaction: Schema.String,
  network: CaipNetwork,
  errorReason: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "SettlementReceipt" })
export type SettlementReceipt = typeof SettlementReceipt.Type

/**
 * A paid operation was called without a payment. Answered 402 with `PAYMENT-REQUIRED` (`offer`) and
 * the `payment_required` envelope (`error`), `next: pay`.
 */
export class PaymentDemanded extends Schema.TaggedError<PaymentDemanded>()("PaymentDemanded", {
  message: Schema.String,
  offer: PaymentRequired
}) {
  /**
   * The envelope's error: code `payment_required`, `next: pay`. Its fields only: the envelope is written
   * from fields, and an error instance would capture a stack trace on every unpaid call for nothing.
   */
  get error(): typeof PaymentRequiredError.Encoded {
    return {
      _tag: "PaymentRequired",
      message: this.message,
      hint: "sign the offer in the PAYMENT-REQUIRED header and resend the request with PAYMENT-SIGNATURE"
    }
  }
}

/**
 * The payment's settlement was sent (`settlement.transaction`) but not confirmed in time. Answered as
 * the x402 reference server answers a failed settlement: 402, `PAYMENT-RESPONSE` with `success: false`,
 * `errorReason: "settlement_pending"` and the transaction, an empty `{}` body, and no offer, since paying
 * again could pay twice. The same payment resent is served once the transaction is mined.
 */
export class SettlementPending extends Schema.TaggedError<SettlementPending>()("SettlementPending", {
  message: Schema.String,
  settlement: SettlementReceipt
}) {}

/**
 * The payment layer refused a payment (wrong amount, asset or network, failed verification, an
 * authorization already used or in use, a failed settlement). Answered 402 with an empty `{}` body
 * and no `next`; `offer` (with `error` set to `reason`) goes in `PAYMENT-REQUIRED` so the payer can
 * pay afresh, and a failed settlement's receipt in `PAYMENT-RESPONSE`. Nothing was charged.
 */
export class PaymentRejected extends Schema.TaggedError<PaymentRejected>()("PaymentRejected", {
  reason: Schema.String,
  message: Schema.String,
  offer: PaymentRequired,
  settlement: Schema.optionalWith(SettlementReceipt, { exact: true })
}) {}

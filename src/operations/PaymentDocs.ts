/**
 * What a paid operation adds to its OpenAPI operation: the payment headers of x402 v2, the refused
 * payment's empty body, and where its price comes from. The price itself is filled in when the
 * document is served (src/http/OpenApiDocument.ts), from the configured price list.
 */
import { Schema } from "effect"
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE, PAYMENT_SIGNATURE } from "../payment/HttpPayment.js"
import type { Cost } from "./Cost.js"

/** A payment the payment layer refused: 402 with an empty body; `PAYMENT-REQUIRED` says why. */
const refusedDescription = "the payment was refused (wrong amount, asset or network, failed verification or " +
  "settlement, an authorization already used): an empty body, the reason in the `error` of the " +
  "`PAYMENT-REQUIRED` offer"
export const PaymentRefused = Schema.Struct({}).annotations({
  identifier: "PaymentRefused",
  description: refusedDescription,
  jsonSchema: { type: "object", properties: {}, additionalProperties: false, description: refusedDescription }
})

/** A part of the generated OpenAPI document, read without trusting its shape. */
type Json = Readonly<Record<string, unknown>>

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)
const objectAt = (json: Json, key: string): Json => {
  const value = json[key]
  return isJson(value) ? value : {}
}
const arrayAt = (json: Json, key: string): ReadonlyArray<unknown> => {
  const value = json[key]
  return Array.isArray(value) ? value : []
}

const base64Json = (description: string) => ({ description, schema: { type: "string", contentEncoding: "base64" } })

const PAYMENT_TERMS = "Paid with x402 v2 (USDC, `exact` scheme): `x-price` gives the amount in USDC base units. " +
  "Without `PAYMENT-SIGNATURE` the answer is 402 with the offer in `PAYMENT-REQUIRED`; a paid answer carries " +
  "`PAYMENT-RESPONSE`. A request that fails validation is answered before any payment is asked for, and an " +
  "error answer is never charged."

/** The OpenAPI operation of a paid operation costing `cost`, from the one HttpApi generated. */
export const paymentDocs = (cost: Cost<never>) => (operation: Json): Json => {
  const responses = objectAt(operation, "responses")
  const description = operation["description"]
  return {
    ...operation,
    description: [typeof description === "string" ? description : undefined, PAYMENT_TERMS]
      .filter((line) => line !== undefined).join("\n\n"),
    parameters: [
      ...arrayAt(operation, "parameters"),
      {
        name: PAYMENT_SIGNATURE.toUpperCase(),
        in: "header",
        required: false,
        ...base64Json("x402 v2 payment payload: an EIP-3009 authorization signed for the offer")
      }
    ],
    responses: {
      ...responses,
      "200": {
        ...objectAt(responses, "200"),
        headers: {
          [PAYMENT_RESPONSE]: base64Json("x402 v2 settlement receipt: `success`, `payer`, `transaction`, `network`")
        }
      },
      "402": {
        ...objectAt(responses, "402"),
        description: "Payment required (`payment_required` envelope, `next: pay`) or payment refused (`{}`)",
        headers: {
          [PAYMENT_REQUIRED]: {
            ...base64Json("x402 v2 offer: `accepts` holds one `exact` USDC requirement with this call's `amount`"),
            required: true
          }
        }
      }
    },
    "x-price": {
      asset: "USDC",
      decimals: 6,
      basis: cost.kind === "fixed" ? "per call" : "from the request",
      ...(cost.kind === "fromInput" ? { rule: cost.rule } : {})
    }
  }
}

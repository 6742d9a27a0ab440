/**
 * HTTP endpoints and groups derived from operation declarations: method, path, payload, success and
 * the operation's own errors (each with its status and envelope from the error table), and the summary
 * the OpenAPI document shows.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { PaymentRequired, PaymentUnavailable } from "../../schema/Errors.js"
import { errorTable } from "../../schema/ErrorTable.js"
import type { AnyOperation, Operation } from "../operations/Operation.js"
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE, PAYMENT_SIGNATURE } from "../payment/HttpPayment.js"
import { httpError } from "./ErrorSchemas.js"

/** A payment the payment layer refused: 402 with an empty body; `PAYMENT-REQUIRED` says why. */
const refusedDescription = "the payment was refused (wrong amount, asset or network, failed verification or " +
  "settlement, an authorization already used): an empty body, the reason in the `error` of the " +
  "`PAYMENT-REQUIRED` offer"
const PaymentRefused = Schema.Struct({}).annotations({
  identifier: "PaymentRefused",
  description: refusedDescription,
  jsonSchema: { type: "object", properties: {}, additionalProperties: false, description: refusedDescription }
})

const base64Json = (description: string) => ({ description, schema: { type: "string", contentEncoding: "base64" } })

/**
 * What a paid operation adds to its OpenAPI operation: the payment headers of x402 v2 and where its
 * price comes from. The price itself is filled in when the document is served (`OpenApiDocument.ts`),
 * from the configured price list.
 */
const paymentDocs = (op: AnyOperation) => (operation: Record<string, any>): Record<string, any> => {
  const responses = { ...operation["responses"] }
  responses["200"] = {
    ...responses["200"],
    headers: {
      [PAYMENT_RESPONSE]: base64Json("x402 v2 settlement receipt: `success`, `payer`, `transaction`, `network`")
    }
  }
  responses["402"] = {
    ...responses["402"],
    description: "Payment required (`payment_required` envelope, `next: pay`), payment refused (`{}`), or " +
      "settlement pending (`{}`, no offer: resend the same payment, do not pay again)",
    headers: {
      [PAYMENT_REQUIRED]: base64Json(
        "x402 v2 offer: `accepts` holds one `exact` USDC requirement with this call's `amount`; absent while a " +
          "settlement is pending"
      ),
      [PAYMENT_RESPONSE]: base64Json(
        "x402 v2 settlement receipt of a failed or pending settlement: `success: false`, `errorReason`, `transaction`"
      ),
      "Cache-Control": { description: "`no-store`", schema: { type: "string" } }
    }
  }
  return {
    ...operation,
    description: [
      operation["description"],
      "Paid with x402 v2 (USDC, `exact` scheme): `x-price` gives the amount in USDC base units. Without " +
      "`PAYMENT-SIGNATURE` the answer is 402 with the offer in `PAYMENT-REQUIRED`; a paid answer carries " +
      "`PAYMENT-RESPONSE`. What can be checked without payment (the body, and the operation's own checks of " +
      "it, such as a ticker for an address, a malformed amount or an unknown venue) is answered with its error " +
      "before any payment is asked for, and an error answer is never charged. A settlement sent but not yet " +
      "mined answers 402 with `PAYMENT-RESPONSE` `settlement_pending` and its transaction: the same payment " +
      "resent is served once it is mined, and charged once."
    ].filter((line) => line !== undefined).join("\n\n"),
    parameters: [
      ...(operation["parameters"] ?? []),
      {
        name: PAYMENT_SIGNATURE.toUpperCase(),
        in: "header",
        required: false,
        ...base64Json("x402 v2 payment payload: an EIP-3009 authorization signed for the offer")
      }
    ],
    responses,
    "x-price": {
      asset: "USDC",
      decimals: 6,
      basis: op.cost.kind === "fixed" ? "per call" : "from the request",
      ...(op.cost.kind === "fromInput" ? { rule: op.cost.rule } : {})
    }
  }
}

export type EndpointOf<Op> = Op extends Operation<infer Name, infer Method, infer I, infer A, infer E, any>
  ? HttpApiEndpoint.HttpApiEndpoint<Name, Method, never, never, [I] extends [void] ? never : I, never, A, E>
  : never

export const endpointOf = <Op extends AnyOperation>(op: Op): EndpointOf<Op> => {
  // Each step changes the endpoint's type (payload, error union); built step by step from data, the
  // result's type is stated by `EndpointOf` instead.
  let endpoint: any = HttpApiEndpoint.make(op.method)(op.name, op.path).addSuccess(op.response)
  if (op.request !== undefined) endpoint = endpoint.setPayload(op.request)
  for (const error of op.errors) endpoint = endpoint.addError(httpError(error as never))
  if (op.refusal !== undefined) {
    endpoint = endpoint.addError(op.refusal.schema, { status: errorTable[op.refusal.error._tag].status })
  }
  if (op.cost.kind !== "free") {
    endpoint = endpoint.addError(httpError(PaymentRequired)).addError(PaymentRefused, { status: 402 })
    // An operation that answers `payment_unavailable` of its own (swap) documents it already: once is enough.
    if (!op.errors.includes(PaymentUnavailable)) endpoint = endpoint.addError(httpError(PaymentUnavailable))
    endpoint = endpoint.annotate(OpenApi.Transform, paymentDocs(op))
  }
  return endpoint.annotate(OpenApi.Summary, op.summary).annotate(OpenApi.Description, op.description) as EndpointOf<Op>
}

/** One `HttpApiGroup` holding the endpoints of `operations`, typed endpoint by endpoint. */
export const groupOf = <const Id extends string, const Ops extends ReadonlyArray<AnyOperation>>(
  id: Id,
  operations: Ops
): HttpApiGroup.HttpApiGroup<Id, EndpointOf<Ops[number]>> =>
  operations.reduce<HttpApiGroup.HttpApiGroup.Any>(
    (group, op) => (group as HttpApiGroup.HttpApiGroup<Id>).add(endpointOf(op)),
    HttpApiGroup.make(id)
  ) as HttpApiGroup.HttpApiGroup<Id, EndpointOf<Ops[number]>>

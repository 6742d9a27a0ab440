/**
 * An operation served over HTTP: its decoded request (HttpApi decodes the body; a GET has none) goes
 * to the interpreter (src/operations/Run.ts) with the payment in `PAYMENT-SIGNATURE`, and the outcome
 * is written as a status, headers and a JSON body.
 */
import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, type Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { PaymentGate, type PaymentReceipt } from "../../layers/PaymentGate.js"
import type { TradeError } from "../../schema/Errors.js"
import type { HttpMethod, NoInput, Operation } from "../operations/Declare.js"
import { httpDiscovery } from "../operations/Discovery.js"
import type { Outcome } from "../operations/Outcome.js"
import { runOperation } from "../operations/Run.js"
import { receiptHeaders, refusalAnswer, submittedPaymentOf } from "../payment/HttpPayment.js"
import { errorResponse } from "./ErrorResponse.js"

/**
 * Free answers already rendered, by encoded answer: an answer the interpreter handed over before (health,
 * unchanged: ../operations/Run.ts) is not written out as JSON again.
 */
const rendered = new WeakMap<object, HttpServerResponse.HttpServerResponse>()

const answered = (body: unknown, receipt: Option.Option<PaymentReceipt>) => {
  if (Option.isSome(receipt) || typeof body !== "object" || body === null) {
    return HttpServerResponse.unsafeJson(body, { headers: receiptHeaders(receipt) })
  }
  const known = rendered.get(body)
  if (known !== undefined) return known
  const response = HttpServerResponse.unsafeJson(body)
  rendered.set(body, response)
  return response
}

const render = (outcome: Outcome) => {
  switch (outcome._tag) {
    case "Answered":
      return Effect.succeed(answered(outcome.body, outcome.receipt))
    case "Failed":
    case "GateFailed":
      return Effect.succeed(errorResponse(outcome.error))
    case "Demanded":
    case "Rejected":
    case "Pending":
      return Effect.map(PaymentGate, (gate) => {
        const { body, headers, status } = refusalAnswer(gate, outcome.refusal)
        return HttpServerResponse.unsafeJson(body, { status, headers })
      })
  }
}

/**
 * How `op` is served over HTTP: run on a decoded `input` for `request`, written as its HTTP answer. What
 * its offer names (the resource, the discovery extension) is the same for every call, so it is built
 * once, here, not per request.
 */
export const servingOf = <
  Req extends Schema.Schema.AnyNoContext,
  Res extends Schema.Schema.AnyNoContext,
  E extends TradeError,
  R
>(op: Operation<string, HttpMethod, Req, Res, E, R>, config: AppConfig) => {
  const resource = { url: `${AppConfig.baseUrl(config)}${op.path}`, description: op.summary }
  const extensions = httpDiscovery(op)
  return (input: Schema.Schema.Type<Req>, request: HttpServerRequest.HttpServerRequest) =>
    Effect.flatMap(
      runOperation(op, input, { submitted: submittedPaymentOf(request.headers), resource, extensions }),
      render
    )
}

/** `op` run on `input` for `request`, written as its HTTP answer. */
export const serveOperation = <
  Req extends Schema.Schema.AnyNoContext,
  Res extends Schema.Schema.AnyNoContext,
  E extends TradeError,
  R
>(
  op: Operation<string, HttpMethod, Req, Res, E, R>,
  input: Schema.Schema.Type<Req>,
  request: HttpServerRequest.HttpServerRequest
) => Effect.flatMap(AppConfig, (config) => servingOf(op, config)(input, request))

/** The handler of a `GET` operation. */
export const getHandler = <Res extends Schema.Schema.AnyNoContext, E extends TradeError, R>(
  op: Operation<string, "GET", typeof NoInput, Res, E, R>
) =>
({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) => serveOperation(op, {}, request)

/** The handler of a `POST` operation, given its decoded body. */
export const postHandler =
  <Req extends Schema.Schema.AnyNoContext, Res extends Schema.Schema.AnyNoContext, E extends TradeError, R>(
    op: Operation<string, "POST", Req, Res, E, R>
  ) =>
  (
    { payload, request }: {
      readonly payload: Schema.Schema.Type<Req>
      readonly request: HttpServerRequest.HttpServerRequest
    }
  ) => serveOperation(op, payload, request)

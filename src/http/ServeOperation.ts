/**
 * The one way an operation is served over HTTP: read the body within the size limit and decode it with
 * the request schema (`schema/Decode.ts` via ./RequestBody.ts), price the decoded request, run the
 * operation (through the payment gate when it costs something), encode its answer with the response
 * schema. Every endpoint goes through here, so every paid operation of the table is charged the same
 * way: a bad body is answered before any payment is asked for, and the answer is encoded (and a
 * refusal recognised) inside the charged effect, so only an answer that leaves as a success is settled.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Data, Effect, Option, Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { PaymentGate, type PaymentReceipt } from "../../layers/PaymentGate.js"
import type { TradeError } from "../../schema/Errors.js"
import { admit, chargedAt, type Operation } from "../operations/Operation.js"
import { httpDiscovery } from "../payment/Discovery.js"
import { isPaymentRefusal, receiptHeaders, refusalAnswer, submittedPaymentOf } from "../payment/HttpPayment.js"
import { errorResponse } from "./ErrorResponse.js"
import { readJsonBody } from "./RequestBody.js"

/** An answer that says the service cannot serve (health while `down`): served, never charged. */
class RefusedAnswer extends Data.TaggedError("RefusedAnswer")<{ readonly error: TradeError; readonly body: object }> {}

export const serveOperation = <Name extends string, I, A, E extends TradeError, R>(
  op: Operation<Name, any, I, A, E, R>
) => {
  const encode = Schema.encode(op.response)
  const decode = op.request === undefined ? Effect.void as Effect.Effect<I> : readJsonBody(op.request)
  const answer = (input: I) =>
    Effect.gen(function*() {
      const value = yield* op.run(input)
      // An answer that fails its own schema is a defect of ours: the edge reports it as `internal`.
      const body = yield* Effect.orDie(encode(value))
      const refused = op.refusal?.of(value)
      if (refused !== undefined) return yield* new RefusedAnswer({ error: refused, body: body as object })
      return body
    })
  const ok = (body: unknown, receipt: Option.Option<PaymentReceipt>) =>
    Effect.orDie(HttpServerResponse.json(body, { headers: receiptHeaders(receipt) }))
  return Effect.gen(function*() {
    const input = yield* decode
    const price = yield* admit(op, input)
    if (Option.isNone(price)) return yield* ok(yield* answer(input), Option.none())
    const gate = yield* PaymentGate
    const request = yield* HttpServerRequest.HttpServerRequest
    const config = yield* AppConfig
    const resource = { url: `${AppConfig.baseUrl(config)}${op.path}`, description: op.summary }
    const charged = answer(input).pipe(chargedAt(price.value))
    const charge = { price: price.value, resource, extensions: httpDiscovery(op) }
    return yield* gate.charge(charge, submittedPaymentOf(request.headers), charged)
      .pipe(
        Effect.flatMap(({ receipt, value }) => ok(value, receipt)),
        Effect.catchIf(isPaymentRefusal, (refusal) => Effect.succeed(refusalResponse(refusalAnswer(gate, refusal))))
      )
  }).pipe(
    Effect.catchIf(
      (failure) => failure instanceof RefusedAnswer,
      ({ body, error }) => Effect.succeed(errorResponse(error, body))
    )
  )
}

const refusalResponse = ({ body, headers, status }: ReturnType<typeof refusalAnswer>) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

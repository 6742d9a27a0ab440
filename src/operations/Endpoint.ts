/**
 * The HTTP endpoint of a declaration: method, path, payload, success, the operation's own errors (each
 * with its status and envelope from the error table) and, for a paid operation, the payment's answers
 * and OpenAPI notes. Built when the operation is declared (./Declare.ts), so its type follows the
 * declaration's and the HTTP API is assembled from the table without restating it.
 */
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "@effect/platform"
import { Effect, ParseResult, Schema, SchemaAST } from "effect"
import { decodeRequest } from "../../schema/Decode.js"
import { PaymentRequired, PaymentUnavailable, type TradeError } from "../../schema/Errors.js"
import { type Cost, isPaid } from "./Cost.js"
import { carries, type ErrorClass, httpError } from "./HttpErrors.js"
import { paymentDocs, PaymentRefused } from "./PaymentDocs.js"

/**
 * The request body as HttpApi decodes it: the request schema's wire form (the OpenAPI document and the
 * typed client read that), decoded as MCP arguments are (`schema/Decode.ts`: unknown keys refused).
 * A failure carries the message alone: HttpApi formats a failure's value, which a hostile body can
 * nest deep enough to overflow the stack. The service's own edge decodes an operation's body itself
 * (src/http/Dispatch.ts); this is the contract's.
 */
export const jsonPayload = <S extends Schema.Schema.AnyNoContext>(
  request: S
): Schema.Schema<Schema.Schema.Type<S>, unknown> => {
  const decode = decodeRequest(request)
  return Schema.transformOrFail(Schema.Unknown, Schema.typeSchema(request), {
    strict: true,
    decode: (body, _, ast) =>
      Effect.mapError(decode(body), (invalid) => new ParseResult.Type(ast, undefined, invalid.message)),
    encode: (value) => ParseResult.encodeUnknown(request)(value)
  }).annotations({ [SchemaAST.SurrogateAnnotationId]: request.ast })
}

/** The errors an operation documents of its own; one that carries the answer documents it beside the envelope. */
const ownErrors = (errors: ReadonlyArray<ErrorClass>, response: Schema.Schema.AnyNoContext) =>
  Schema.Union(
    ...errors.map((errorClass): Schema.Schema<TradeError, unknown> =>
      httpError(errorClass, carries(errorClass, "report") ? response : undefined)
    )
  )

/**
 * What a paid operation can answer besides its own: pay first, payment refused, payment layer down. An
 * operation that answers `payment_unavailable` of its own (swap) documents it already: once is enough.
 */
const paymentErrors = (cost: Cost<never>, errors: ReadonlyArray<ErrorClass>) =>
  Schema.Union(
    ...(isPaid(cost)
      ? [
        httpError(PaymentRequired),
        PaymentRefused.annotations(HttpApiSchema.annotations({ status: 402 })),
        ...(errors.includes(PaymentUnavailable) ? [] : [httpError(PaymentUnavailable)])
      ]
      : [])
  )

interface Declared<Name extends string, Res extends Schema.Schema.AnyNoContext> {
  readonly name: Name
  readonly path: `/${string}`
  readonly summary: string
  readonly description: string
  readonly response: Res
  readonly errors: ReadonlyArray<ErrorClass>
  readonly cost: Cost<never>
}

/**
 * The summary and description, and for a paid operation its payment notes (with
 * exactOptionalPropertyTypes, unset is absent).
 */
const notes = ({ cost, description, summary }: Declared<string, Schema.Schema.AnyNoContext>) =>
  OpenApi.annotations(
    isPaid(cost) ? { summary, description, transform: paymentDocs(cost) } : { summary, description }
  )

export const getEndpoint = <const Name extends string, Res extends Schema.Schema.AnyNoContext>(
  declared: Declared<Name, Res>
) =>
  HttpApiEndpoint.get(declared.name, declared.path)
    .addSuccess(declared.response)
    .addError(ownErrors(declared.errors, declared.response))
    .addError(paymentErrors(declared.cost, declared.errors))
    .annotateContext(notes(declared))

export const postEndpoint = <
  const Name extends string,
  Req extends Schema.Schema.AnyNoContext,
  Res extends Schema.Schema.AnyNoContext
>(declared: Declared<Name, Res>, request: Req) =>
  HttpApiEndpoint.post(declared.name, declared.path)
    .setPayload(jsonPayload(request))
    .addSuccess(declared.response)
    .addError(ownErrors(declared.errors, declared.response))
    .addError(paymentErrors(declared.cost, declared.errors))
    .annotateContext(notes(declared))

/**
 * The HTTP endpoint of a declaration: method, path, payload, success, the operation's own errors (each
 * with its status and envelope from the error table) and, for a paid operation, the payment's answers
 * and OpenAPI notes. Built when the operation is declared (./Declare.ts), so its type follows the
 * declaration's and the HTTP API is assembled from the table without restating it.
 */
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "@effect/platform"
import { Effect, ParseResult, Schema, SchemaAST } from "effect"
import { decodeRequest } from "../../schema/Decode.js"
import { type InvalidRequest, PaymentRequired, PaymentUnavailable, type TradeError } from "../../schema/Errors.js"
import { type Cost, isPaid } from "./Cost.js"
import { carries, type ErrorClass, httpError } from "./HttpErrors.js"
import { paymentDocs, PaymentRefused } from "./PaymentDocs.js"

/**
 * The request body as HttpApi decodes it: the request schema's wire form (the OpenAPI document and the
 * typed client read that), decoded as MCP arguments are (`schema/Decode.ts`: unknown keys refused).
 * A failure carries the message alone: HttpApi formats a failure's value, which a hostile body can
 * nest deep enough to overflow the stack. The edge words the refusal (src/http/Edge.ts).
 */
export const jsonPayload = <S extends Schema.Schema.AnyNoContext>(
  request: S
): Schema.Schema<Schema.Schema.Type<S>, unknown> => {
  const decode = decodeRequest(request)
  const payload = Schema.transformOrFail(Schema.Unknown, Schema.typeSchema(request), {
    strict: true,
    decode: (body, _, ast) => {
      const judged = typeof body === "object" && body !== null ? accepted.get(body) : undefined
      if (judged?.request === request) return ParseResult.succeed(judged.value)
      return Effect.mapError(decode(body), (invalid) => new ParseResult.Type(ast, undefined, invalid.message))
    },
    encode: (value) => ParseResult.encodeUnknown(request)(value)
  }).annotations({ [SchemaAST.SurrogateAnnotationId]: request.ast })
  requests.set(payload.ast, request)
  judges.set(request, (body) =>
    Effect.map(decode(body), (value) => {
      if (typeof body === "object" && body !== null) accepted.set(body, { request, value })
    }))
  return payload
}

/**
 * The edge judges a body before HttpApi sees it: a refused body is answered at once (HttpApi would
 * build and format its own decode error only for the edge to word it again), an accepted one is
 * remembered by body so HttpApi's decode returns it without decoding twice.
 */
const judges = new WeakMap<Schema.Schema<unknown>, (body: unknown) => Effect.Effect<void, InvalidRequest>>()
const accepted = new WeakMap<object, { readonly request: unknown; readonly value: unknown }>()

/** Decodes `body` as `jsonPayload(request)` will, refusing it as MCP refuses bad arguments. */
export const judgeBody = (
  request: Schema.Schema<unknown> | undefined,
  body: unknown
): Effect.Effect<void, InvalidRequest> =>
  (request === undefined ? undefined : judges.get(request)?.(body)) ?? Effect.void

/** The request schema behind each `jsonPayload`, for the edge to word a refusal with. */
const requests = new WeakMap<SchemaAST.AST, Schema.Schema<unknown>>()

/** The request schema of an endpoint's payload made by `jsonPayload`. */
export const requestSchemaOf = (payload: { readonly ast: SchemaAST.AST }): Schema.Schema<unknown> | undefined =>
  requests.get(payload.ast)

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

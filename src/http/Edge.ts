/**
 * The one edge middleware of the HTTP API. Every answer leaves through it, so it is where the
 * request id, `nosniff` and the CORS headers are attached, a CORS preflight is answered, the body-size
 * limit is enforced, a wrong method on a known path becomes 405, and any failure that escaped a handler
 * (unknown path, defect, interruption) is turned into the standard error envelope. Errors Node's parser raises before a request exists are
 * answered in `Protocol.ts` with the same envelope.
 */
import { HttpApi, HttpApiBuilder, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Cause, Effect, Option, Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { clip } from "../../schema/Decode.js"
import { ClientClosed, Internal, MethodNotAllowed, TradeError, UnknownPath } from "../../schema/Errors.js"
import { exposedPaymentHeaders } from "../payment/HttpPayment.js"
import { type DispatchOf, dispatchTable } from "./Dispatch.js"
import { answerBeforeServing } from "./EarlyAnswer.js"
import { errorResponse } from "./ErrorResponse.js"
import { readJsonBody } from "./JsonBody.js"
import { type Route, routesOf } from "./Routes.js"

const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/

export const freshRequestId = (): string => `req_${crypto.randomUUID().replaceAll("-", "")}`

const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const sent = request.headers["x-request-id"]
  return sent !== undefined && saneRequestId.test(sent) ? sent : freshRequestId()
}

/**
 * Headers every answer carries, from the edge middleware and the raw protocol answers alike. Any
 * origin may call (there are no cookies or accounts: a call is authorised by its payment alone), and
 * a browser agent must be able to read the payment headers and the request id.
 */
export const edgeHeaders = (requestId: string) => ({
  "x-request-id": requestId,
  "x-content-type-options": "nosniff",
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED
})

const EXPOSED = [...exposedPaymentHeaders, "X-Request-Id"].join(", ")

/**
 * `response` with the edge's headers, set one by one: `HttpServerResponse.setHeaders` copies the
 * record through three intermediate header objects, about 4 µs per answer against 0.7 µs this way
 * (docs/performance.md).
 */
const withEdgeHeaders = (response: HttpServerResponse.HttpServerResponse, requestId: string) =>
  Object.entries(edgeHeaders(requestId)).reduce(
    (headed, [name, value]) => HttpServerResponse.setHeader(headed, name, value),
    response
  )

const isTradeError = Schema.is(TradeError)

const pathOf = (url: string): string => url.split("?", 1)[0]!

const failureToError = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  routes: ReadonlyMap<string, Route>
): Effect.Effect<TradeError> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (isTradeError(error)) return Effect.succeed(error)
    if (typeof error === "object" && error !== null && "_tag" in error && error._tag === "RouteNotFound") {
      const methods = routes.get(pathOf(request.url))?.methods
      if (methods !== undefined) {
        return Effect.succeed(
          new MethodNotAllowed({
            message: `${clip(request.method, 16)} is not allowed on ${pathOf(request.url)}`,
            hint: `use ${methods.join(" or ")}`
          })
        )
      }
      return Effect.succeed(
        new UnknownPath({
          message: `no endpoint at ${clip(request.method, 16)} ${clip(request.url, 128)}`,
          hint: "see the OpenAPI document at /openapi.json"
        })
      )
    }
  }
  if (Cause.isInterruptedOnly(cause)) {
    return Effect.succeed(new ClientClosed({ message: "the client closed the connection" }))
  }
  // A defect, or an answer that fails its own schema: ours to fix.
  return Effect.logError("unhandled failure", cause).pipe(
    Effect.annotateLogs({ requestId }),
    Effect.as(new Internal({ message: "internal error", hint: `quote request id ${requestId} when reporting it` }))
  )
}

/**
 * An answer given before the request body was read to its end (413, 404, 415, a body on GET…) closes
 * the connection: otherwise Node would read and discard the rest of the upload, however long it is,
 * to reach the next request on the socket. The parser may still be finishing the chunk that carried
 * the headers, so an unfinished body is looked at again one turn later before deciding. A request
 * without a body, or whose body was read to its end, is decided at once: the turn (a trip through the
 * scheduler) was most of a health check's cost.
 */
const closingIfBodyUnread = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  return incoming.complete || !declaresBody(request) ? Effect.succeed(response) : Effect.zipRight(
    Effect.yieldNow(),
    Effect.sync(() => incoming.complete ? response : HttpServerResponse.setHeader(response, "connection", "close"))
  )
}

/**
 * Whether a body follows the headers. Without one the body limit has nothing to bound, and setting it
 * (a copy of the fiber's context) is left out of the many bodiless calls (health, monitors).
 */
const declaresBody = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["transfer-encoding"] !== undefined || (request.headers["content-length"] ?? "0") !== "0"

/** The edge, serving the operations `dispatchOf` finds (./Dispatch.ts) itself and the rest through HttpApi. */
export const edgeMiddleware = <R>(dispatchOf: Effect.Effect<DispatchOf, never, R>) =>
  HttpApiBuilder.middleware(Effect.gen(function*() {
    const config = yield* AppConfig
    const { api } = yield* HttpApi.Api
    const routes = routesOf(api)
    const dispatch = yield* dispatchOf
    return (app) => {
      const refuse = (cause: Cause.Cause<unknown>, request: HttpServerRequest.HttpServerRequest, requestId: string) =>
        Effect.map(failureToError(cause, request, requestId, routes), (error) => {
          const answer = errorResponse(error)
          return error._tag === "MethodNotAllowed"
            ? HttpServerResponse.setHeader(answer, "allow", routes.get(pathOf(request.url))!.methods.join(", "))
            : answer
        })
      // An operation is served here (./Dispatch.ts), its JSON body read within the limit and decoded once;
      // anything else goes to HttpApi.
      const serve = (request: HttpServerRequest.HttpServerRequest, requestId: string, path: string) => {
        const found = dispatch(request.method, path)
        const served = found === undefined
          ? (declaresBody(request) ? HttpIncomingMessage.withMaxBodySize(app, Option.some(config.maxBodyBytes)) : app)
          : found.decode === undefined
          ? found.serve(request, {})
          : Effect.matchEffect(Effect.flatMap(readJsonBody(request, config.maxBodyBytes), found.decode), {
            onFailure: (refused) => Effect.succeed(errorResponse(refused)),
            onSuccess: (input) => found.serve(request, input)
          })
        return Effect.catchAllCause(served, (cause) => refuse(cause, request, requestId))
      }
      // Plain combinators rather than a generator: this runs for every request, health checks included.
      return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const requestId = requestIdOf(request)
        const path = pathOf(request.url)
        const early = answerBeforeServing(request, routes.get(path), config.maxBodyBytes)
        return Effect.flatMap(
          early === undefined ? serve(request, requestId, path) : Effect.succeed(early),
          (response) => closingIfBodyUnread(request, withEdgeHeaders(response, requestId))
        )
      })
    }
  }))

export const EdgeMiddleware = edgeMiddleware(dispatchTable)

/**
 * The one edge middleware of the HTTP API. Every answer leaves through it, so it is where the
 * request id is attached, the body-size limit is enforced, and any failure that escaped a handler
 * (unknown path, defect, interruption) is turned into the standard error envelope.
 */
import { HttpApiBuilder, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Option, Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { ClientClosed, Internal, TradeError, UnknownPath } from "../../schema/Errors.js"
import { errorResponse } from "./ErrorResponse.js"
import { tooLarge } from "./RequestBody.js"

const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/

const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const sent = request.headers["x-request-id"]
  return sent !== undefined && saneRequestId.test(sent) ? sent : `req_${crypto.randomUUID().replaceAll("-", "")}`
}

const isTradeError = Schema.is(TradeError)

const failureToError = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string
): Effect.Effect<TradeError> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (isTradeError(error)) return Effect.succeed(error)
    if (typeof error === "object" && error !== null && "_tag" in error) {
      if (error._tag === "RouteNotFound") {
        return Effect.succeed(
          new UnknownPath({
            message: `no endpoint at ${request.method} ${request.url}`,
            hint: "see the OpenAPI document at /openapi.json"
          })
        )
      }
    }
  }
  if (Cause.isInterruptedOnly(cause)) {
    return Effect.succeed(new ClientClosed({ message: "the client closed the connection" }))
  }
  // Includes an answer that fails its own schema: HttpApi reports that as a decode error, but the
  // request was fine (bodies are decoded by the handlers), so it is ours to fix.
  return Effect.logError("unhandled failure", cause).pipe(
    Effect.annotateLogs({ requestId }),
    Effect.as(new Internal({ message: "internal error", hint: `quote request id ${requestId} when reporting it` }))
  )
}

export const EdgeMiddleware = HttpApiBuilder.middleware(
  Effect.map(AppConfig, (config) => (app) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const requestId = requestIdOf(request)
      const declaredLength = Number(request.headers["content-length"] ?? "0")
      const response = declaredLength > config.maxBodyBytes
        ? errorResponse(tooLarge(Option.some(config.maxBodyBytes)))
        : yield* app.pipe(
          HttpIncomingMessage.withMaxBodySize(Option.some(config.maxBodyBytes)),
          Effect.catchAllCause((cause) => Effect.map(failureToError(cause, request, requestId), errorResponse))
        )
      return HttpServerResponse.setHeader(response, "x-request-id", requestId)
    }))
)

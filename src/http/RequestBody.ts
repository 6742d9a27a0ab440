/**
 * Reads and decodes a JSON request body. Oversized bodies become `payload_too_large`, malformed JSON
 * and schema violations become `invalid_request`, so no body problem can surface as a 500.
 */
import { HttpIncomingMessage, HttpServerRequest } from "@effect/platform"
import { Effect, Option, type Schema } from "effect"
import { decodeRequest, invalidRequest } from "../../schema/Decode.js"
import { Issue, PayloadTooLarge } from "../../schema/Errors.js"

const isSizeLimit = (cause: unknown) => cause instanceof Error && cause.message === "maxBytes exceeded"

export const tooLarge = (limit: Option.Option<number>) =>
  new PayloadTooLarge({
    message: Option.match(limit, {
      onNone: () => "request body is too large",
      onSome: (bytes) => `request body is larger than ${bytes} bytes`
    }),
    hint: "send a smaller body; no request of this API needs more"
  })

export const readJsonBody = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = decodeRequest(schema)
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const limit = Option.map(yield* HttpIncomingMessage.MaxBodySize, Number)
    const text = yield* Effect.mapError(request.text, (error) =>
      isSizeLimit(error.cause)
        ? tooLarge(limit)
        : invalidRequest("request body could not be read", []))
    const json = yield* Effect.try({
      try: (): unknown => (text.trim() === "" ? null : JSON.parse(text)),
      catch: (cause) =>
        invalidRequest("request body is not valid JSON", [
          new Issue({
            expected: "a JSON object",
            code: "invalid_json",
            path: [],
            message: cause instanceof Error ? cause.message : "malformed JSON"
          })
        ], "send `content-type: application/json` with a JSON object body")
    })
    return yield* decode(json)
  })
}

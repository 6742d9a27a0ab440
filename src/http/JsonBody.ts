/**
 * Reads a JSON request body for the edge to decode (./Dispatch.ts). A body not declared as JSON becomes
 * `unsupported_media_type`, an oversized one `payload_too_large`, malformed JSON `invalid_request`, so
 * no body problem can surface as a 500; what the JSON must hold is the request schema's to say
 * (src/operations/Endpoint.ts `jsonPayload`).
 */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option } from "effect"
import { clip, invalidRequest } from "../../schema/Decode.js"
import { Issue, PayloadTooLarge, UnsupportedMediaType } from "../../schema/Errors.js"

export const tooLarge = (limit: Option.Option<number>) =>
  new PayloadTooLarge({
    message: Option.match(limit, {
      onNone: () => "request body is too large",
      onSome: (bytes) => `request body is larger than ${bytes} bytes`
    }),
    hint: "send a smaller body; no request of this API needs more"
  })

/** `application/json`, any case, with or without parameters such as `charset=utf-8`. */
const jsonMediaType = /^application\/json\s*(;|$)/i

const requireJson = (request: HttpServerRequest.HttpServerRequest) => {
  const declared = request.headers["content-type"]
  return declared !== undefined && jsonMediaType.test(declared.trim())
    ? Effect.void
    : Effect.fail(
      new UnsupportedMediaType({
        message: declared === undefined
          ? "the request has no content-type"
          : `content-type ${JSON.stringify(clip(declared, 64))} is not JSON`,
        hint: "send `content-type: application/json` with a JSON object body"
      })
    )
}

/**
 * The body as text, at most `limit` bytes. Unlike the platform reader, going over the limit does not
 * destroy the socket at once: reading stops, and the edge answers 413 on a connection it then closes.
 */
export const readText = (request: HttpServerRequest.HttpServerRequest, limit: Option.Option<number>) =>
  Effect.async<string, PayloadTooLarge | ReturnType<typeof invalidRequest>>((resume) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    const max = Option.getOrElse(limit, () => Number.POSITIVE_INFINITY)
    const chunks: Array<Buffer> = []
    let bytes = 0
    const detach = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes <= max) return void chunks.push(chunk)
      detach()
      resume(Effect.fail(tooLarge(limit)))
    }
    const onEnd = () => {
      detach()
      resume(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    }
    const onError = () => {
      detach()
      resume(Effect.fail(invalidRequest("request body could not be read", [])))
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    return Effect.sync(detach)
  })

const parseJson = (text: string) =>
  Effect.try({
    try: (): unknown => (text.trim() === "" ? null : JSON.parse(text)),
    catch: (cause) =>
      invalidRequest("request body is not valid JSON", [
        new Issue({
          expected: "a JSON object",
          code: "invalid_json",
          path: [],
          message: cause instanceof Error ? clip(cause.message, 120) : "malformed JSON"
        })
      ], "send `content-type: application/json` with a JSON object body")
  })

/** The JSON body of `request`, at most `limit` bytes. */
export const readJsonBody = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.zipRight(requireJson(request), Effect.flatMap(readText(request, Option.some(limit)), parseJson))

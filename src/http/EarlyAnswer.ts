/**
 * What the edge (./Edge.ts) answers without serving a request: a CORS preflight, a declared body over
 * the limit, an HTTP/1.1 request without Host. Decided from the headers alone, without an effect.
 */
import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Option } from "effect"
import { invalidRequest } from "../../schema/Decode.js"
import { PAYMENT_SIGNATURE } from "../payment/HttpPayment.js"
import { errorResponse } from "./ErrorResponse.js"
import { tooLarge } from "./JsonBody.js"
import type { Route } from "./Routes.js"

/**
 * Request headers a browser agent sends beyond the safelisted ones: JSON bodies, the payment, its own
 * request id, and `Access-Control-Expose-Headers`, which `@x402/fetch` sets on its paid retry.
 */
const corsRequestHeaders = ["content-type", PAYMENT_SIGNATURE, "x-request-id", "access-control-expose-headers"]

// Browsers cap the cache of a preflight (Chromium at 2 hours); one preflight per path for that long.
const PREFLIGHT_MAX_AGE_SEC = 7_200

const preflight = (methods: ReadonlyArray<string>) =>
  HttpServerResponse.empty({
    status: 204,
    headers: {
      "access-control-allow-methods": methods.join(", "),
      "access-control-allow-headers": corsRequestHeaders.join(", "),
      "access-control-max-age": String(PREFLIGHT_MAX_AGE_SEC)
    }
  })

/** What is answered without serving the request: a preflight, a declared body over the limit, no Host. */
export const answerBeforeServing = (
  request: HttpServerRequest.HttpServerRequest,
  route: Route | undefined,
  maxBodyBytes: number
): HttpServerResponse.HttpServerResponse | undefined => {
  if (request.method === "OPTIONS" && route !== undefined) return preflight(route.methods)
  if (Number(request.headers["content-length"] ?? "0") > maxBodyBytes) {
    return errorResponse(tooLarge(Option.some(maxBodyBytes)))
  }
  // HTTP/1.1 requires Host (RFC 9112 §3.2); Node's own check would answer without an envelope.
  if (request.headers["host"] === undefined && NodeHttpServerRequest.toIncomingMessage(request).httpVersion === "1.1") {
    return errorResponse(invalidRequest("the request has no Host header", [], "HTTP/1.1 requests must send Host"))
  }
  return undefined
}

/**
 * Renders a domain error as the HTTP answer: the envelope, its status and a `Retry-After` header when
 * the table gives `retryAfterSec`.
 */
import { HttpServerResponse } from "@effect/platform"
import { retryAfterOf, toErrorBody } from "../../schema/ErrorBody.js"
import type { TradeError } from "../../schema/Errors.js"
import { rowOf } from "../../schema/ErrorTable.js"

/** `fields`, when given, are served beside the envelope (an answer that is also a refusal). */
export const errorResponse = (error: TradeError, fields: object = {}): HttpServerResponse.HttpServerResponse => {
  const retryAfter = retryAfterOf(error)
  return HttpServerResponse.unsafeJson({ ...fields, ...toErrorBody(error) }, {
    status: rowOf(error).status,
    headers: retryAfter === undefined ? {} : { "retry-after": String(retryAfter) }
  })
}

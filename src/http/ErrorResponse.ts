/**
 * Renders a domain error as the HTTP answer: the envelope, its status and a `Retry-After` header when
 * the table gives `retryAfterSec`.
 */
import { HttpServerResponse } from "@effect/platform"
import { toErrorBody } from "../../schema/ErrorBody.js"
import type { TradeError } from "../../schema/Errors.js"
import { rowOf } from "../../schema/ErrorTable.js"

/** `fields`, when given, are served beside the envelope (an answer that is also a refusal). */
export const errorResponse = (error: TradeError, fields: object = {}): HttpServerResponse.HttpServerResponse => {
  const row = rowOf(error)
  return HttpServerResponse.unsafeJson({ ...fields, ...toErrorBody(error) }, {
    status: row.status,
    headers: row.retryAfterSec === undefined ? {} : { "retry-after": String(row.retryAfterSec) }
  })
}

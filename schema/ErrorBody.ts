/**
 * The error envelope every error answer carries:
 * `{ error: { code, message, hint?, details? }, next, retryAfterSec? }`.
 */
import { Schema } from "effect"
import { Issue, type TradeError } from "./Errors.js"
import { Next, rowOf } from "./ErrorTable.js"

export const ErrorDetail = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  hint: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Array(Issue))
})

export const ErrorBody = Schema.Struct({
  error: ErrorDetail,
  next: Next,
  retryAfterSec: Schema.optional(Schema.NonNegativeInt)
}).annotations({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBody.Type

export const toErrorBody = (error: TradeError): ErrorBody => {
  const row = rowOf(error)
  return {
    error: {
      code: row.code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(error._tag === "InvalidRequest" ? { details: error.details } : {})
    },
    next: row.next,
    ...(row.retryAfterSec === undefined ? {} : { retryAfterSec: row.retryAfterSec })
  }
}

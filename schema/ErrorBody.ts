/**
 * The error envelope every error answer carries:
 * `{ error: { code, message, hint?, details? }, next, retryAfterSec? }`.
 */
import { Schema } from "effect"
import { Issue, type TradeErrorFields } from "./Errors.js"
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
  retryAfterSec: Schema.optional(Schema.NonNegativeInt),
  /** `quote_stale` / `quote_expired` from `swap`: the free replacement quote (a quote answer body).
   * Plain `type: object` in JSON Schema: `Schema.Object`'s own carries `$id: /schemas/object`, and an MCP
   * output schema holding the envelope twice (health's refusal) is then refused by ajv as ambiguous. */
  quote: Schema.optional(Schema.Object.annotations({ jsonSchema: { type: "object" } }))
}).annotations({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBody.Type

/** Seconds to wait before retrying: the error's own figure when it has one, else its row's. */
export const retryAfterOf = (error: TradeErrorFields): number | undefined =>
  ("retryAfterSec" in error && error.retryAfterSec !== undefined ? error.retryAfterSec : undefined) ??
    rowOf(error).retryAfterSec

/** A replacement that cannot be traded turns `requote` into `stop` (the spec's error rule 2). */
const nextOf = (error: TradeErrorFields) =>
  "tradable" in error && error.tradable === false ? "stop" as const : rowOf(error).next

/** The envelope of `error`; health's report, when the error carries it, is served beside it. */
export const toErrorBody = (error: TradeErrorFields): ErrorBody => {
  const row = rowOf(error)
  const retryAfterSec = retryAfterOf(error)
  return {
    ...("report" in error ? error.report : {}),
    error: {
      code: row.code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(error._tag === "InvalidRequest" ? { details: error.details } : {})
    },
    next: nextOf(error),
    ...(retryAfterSec === undefined ? {} : { retryAfterSec }),
    ...("quote" in error && error.quote !== undefined ? { quote: error.quote } : {})
  }
}

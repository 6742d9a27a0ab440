/**
 * Wire form of a domain error for the HttpApi contract: the error envelope with the code, `next`
 * and status of the error's row in the one error table. The OpenAPI document is generated from these.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { ErrorDetail, toErrorBody } from "../../schema/ErrorBody.js"
import type { TradeError, TradeErrorFields } from "../../schema/Errors.js"
import { errorTable } from "../../schema/ErrorTable.js"
import { QuoteResponse } from "../../schema/Quote.js"

/** An error class of the contract (`schema/Errors.ts`), as an operation lists the errors of its own. */
export type ErrorClass = Schema.Schema.AnyNoContext & {
  readonly Type: TradeError
  readonly _tag: TradeError["_tag"]
  readonly fields: Schema.Struct.Fields
}

/** The free replacement quote (at most one per paid quote): review it before use; `next` is `stop` when it cannot be traded, with `error.hint` saying why. */
const replacementQuote = Schema.optional(QuoteResponse)

/** Whether errors of `errorClass` can carry `field` (a replacement `quote`, health's `report`). */
export const carries = (errorClass: ErrorClass, field: "quote" | "report"): boolean => field in errorClass.fields

/**
 * The envelope of `errorClass`. `report`, for an error that carries its operation's answer (health
 * while `down`), documents that answer's fields beside the envelope.
 */
export const httpError = <E extends TradeError, I extends TradeErrorFields>(
  errorClass: Schema.Schema<E, I> & { readonly _tag: E["_tag"]; readonly fields: Schema.Struct.Fields },
  report?: Schema.Schema.AnyNoContext
) => {
  const row = errorTable[errorClass._tag]
  const replaceable = carries(errorClass, "quote")
  const fields = {
    error: Schema.Struct({ ...ErrorDetail.fields, code: Schema.Literal(row.code) }),
    next: replaceable ? Schema.Literal(row.next, "stop") : Schema.Literal(row.next),
    retryAfterSec: Schema.optional(Schema.NonNegativeInt)
  }
  const envelope = replaceable ? Schema.Struct({ ...fields, quote: replacementQuote }) : Schema.Struct(fields)
  const Envelope = report === undefined
    ? envelope.annotations({ identifier: `Error_${row.code}`, description: `${row.code}: next is \`${row.next}\`` })
    : Schema.extend(report, envelope).annotations({
      description: `${row.code} with the report beside the envelope: next is \`${row.next}\``
    })
  return Schema.transform(Envelope, errorClass, {
    strict: false,
    decode: (body) => ({ _tag: errorClass._tag, ...body.error }),
    encode: toErrorBody
  }).annotations(HttpApiSchema.annotations({ status: row.status }))
}

/**
 * Wire form of a domain error for the HttpApi contract: the error envelope with the code, `next`
 * and status of the error's row in the one error table. The OpenAPI document is generated from these.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { type ErrorBody, ErrorDetail, toErrorBody } from "../../schema/ErrorBody.js"
import type { TradeError } from "../../schema/Errors.js"
import { errorTable } from "../../schema/ErrorTable.js"
import { QuoteResponse } from "../../schema/Quote.js"

/** The free replacement quote (at most one per paid quote): review it before use; `next` is `stop` when it cannot be traded, with `error.hint` saying why. */
const replacementQuote = Schema.optional(QuoteResponse)

export const httpError = <E extends TradeError, I>(errorClass: Schema.Schema<E, I> & { readonly _tag: E["_tag"] }) => {
  const row = errorTable[errorClass._tag]
  // An error that can carry a replacement quote (schema/Errors.ts `Replaceable`) documents it.
  const replaceable = "quote" in ((errorClass as { readonly fields?: object }).fields ?? {})
  const fields = {
    error: Schema.Struct({ ...ErrorDetail.fields, code: Schema.Literal(row.code) }),
    next: replaceable ? Schema.Literal(row.next, "stop") : Schema.Literal(row.next),
    retryAfterSec: Schema.optional(Schema.NonNegativeInt)
  }
  const Envelope = (replaceable ? Schema.Struct({ ...fields, quote: replacementQuote }) : Schema.Struct(fields))
    .annotations({ identifier: `Error_${row.code}`, description: `${row.code}: next is \`${row.next}\`` })
  return Schema.transform(Envelope as Schema.Schema<ErrorBody>, errorClass, {
    strict: false,
    decode: (body) => ({ _tag: errorClass._tag, ...body.error }),
    encode: (error) => toErrorBody(error as unknown as TradeError)
  }).annotations(HttpApiSchema.annotations({ status: row.status }))
}

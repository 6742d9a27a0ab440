/**
 * Wire form of a domain error for the HttpApi contract: the error envelope with the code, `next`
 * and status of the error's row in the one error table. The OpenAPI document is generated from these.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { ErrorDetail } from "../../schema/ErrorBody.js"
import type { TradeError } from "../../schema/Errors.js"
import { errorTable } from "../../schema/ErrorTable.js"

type ErrorFields = Omit<typeof ErrorDetail.Type, "code">

const withoutTag = ({ _tag: _, ...fields }: ErrorFields & { readonly _tag: string }): ErrorFields => fields

export const httpError = <E extends TradeError, I>(errorClass: Schema.Schema<E, I> & { readonly _tag: E["_tag"] }) => {
  const row = errorTable[errorClass._tag]
  const Envelope = Schema.Struct({
    error: Schema.Struct({ ...ErrorDetail.fields, code: Schema.Literal(row.code) }),
    next: Schema.Literal(row.next),
    retryAfterSec: Schema.optional(Schema.NonNegativeInt)
  }).annotations({ identifier: `Error_${row.code}`, description: `${row.code}: next is \`${row.next}\`` })
  return Schema.transform(Envelope, errorClass, {
    strict: false,
    decode: (body) => ({ _tag: errorClass._tag, ...body.error }),
    encode: (encoded) => ({
      error: { ...withoutTag(encoded as ErrorFields & { readonly _tag: string }), code: row.code },
      next: row.next,
      ...("retryAfterSec" in row ? { retryAfterSec: row.retryAfterSec } : {})
    })
  }).annotations(HttpApiSchema.annotations({ status: row.status }))
}

/**
 * `receipt`: did the swap deliver at least the minimum.
 */
import { Schema } from "effect"
import { Next } from "./ErrorTable.js"
import { Address, QuoteId, RawAmount, TxHash } from "./Primitives.js"

export const ReceiptRequest = Schema.Struct({
  quoteId: QuoteId,
  txHashes: Schema.Array(TxHash).pipe(Schema.minItems(1), Schema.maxItems(4)).annotations({
    description: "1 to 4 hashes: the swap and any approvals, as sent by the taker"
  })
}).annotations({ identifier: "ReceiptRequest" })
export type ReceiptRequest = typeof ReceiptRequest.Type

export const ReceiptResponse = Schema.Struct({
  quoteId: QuoteId,
  result: Schema.Literal("pass", "pending", "fail"),
  delivered: RawAmount.annotations({ description: "base units of `token` received by the recipient" }),
  minAmountOut: RawAmount,
  token: Address,
  recipient: Address,
  swapTxHash: Schema.NullOr(TxHash),
  block: Schema.NullOr(Schema.NonNegativeInt),
  reason: Schema.NullOr(Schema.String),
  next: Schema.optional(Next)
}).annotations({ identifier: "ReceiptResponse" })
export type ReceiptResponse = typeof ReceiptResponse.Type

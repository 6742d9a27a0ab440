/**
 * `receipt`: did the swap deliver at least the minimum. The spec names `result`, `delivered`,
 * `minAmountOut`, `token`, `reason` and `next`; the other fields are ours, so a caller can see which
 * transaction filled, at which block, and how each listed transaction stands.
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

/** One listed transaction as the chain knows it when the receipt is read. */
export const ReceiptTransaction = Schema.Struct({
  txHash: TxHash,
  status: Schema.Literal("success", "reverted", "unmined").annotations({
    description: "`unmined` also when the node does not know the hash (yet)"
  }),
  block: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "the block it was mined in" })
}).annotations({ identifier: "ReceiptTransaction" })
export type ReceiptTransaction = typeof ReceiptTransaction.Type

export const ReceiptResponse = Schema.Struct({
  quoteId: QuoteId,
  result: Schema.Literal("pass", "pending", "fail").annotations({
    description: "`pass`: delivered >= minAmountOut; `pending`: not mined yet (retry in 5 s or more); " +
      "`fail`: nothing filled (`next: requote`) or a fill that cannot pass (`next: stop`)"
  }),
  delivered: RawAmount.annotations({
    description:
      "base units of `token` the recipient received from this quote's fills (on `pass`: the listed swap's output)"
  }),
  minAmountOut: RawAmount.annotations({ description: "the least output the built swap accepts, base units" }),
  token: Address.annotations({ description: "the buy token" }),
  recipient: Address.annotations({ description: "who the built swap delivers to" }),
  swapTxHash: Schema.NullOr(TxHash).annotations({
    description: "the listed transaction that filled, or else the listed router call that reverted"
  }),
  block: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "the block of `swapTxHash`" }),
  transactions: Schema.Array(ReceiptTransaction).annotations({
    description: "each listed transaction, in the order listed"
  }),
  unlistedFills: Schema.Array(TxHash).annotations({
    description: "transactions not listed that filled this quote for the taker (each makes the result `fail`)"
  }),
  reason: Schema.NullOr(Schema.String).annotations({ description: "why the result is not `pass`" }),
  retryAfterSec: Schema.optional(Schema.NonNegativeInt).annotations({
    description: "on `pending`: seconds before the next chain read is allowed (one per quote every 5 s)"
  }),
  next: Schema.optional(Next).annotations({ description: "absent on `pass`" })
}).annotations({ identifier: "ReceiptResponse" })
export type ReceiptResponse = typeof ReceiptResponse.Type

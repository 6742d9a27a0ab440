/**
 * Answers read with the service's own schemas: a 200 decoded to its response type, anything else
 * thrown as `ServiceError` with the decoded error envelope.
 */
import { Schema } from "effect"
import { ErrorBody } from "../../schema/ErrorBody.js"
import { HealthResponse } from "../../schema/Health.js"
import { QuoteResponse } from "../../schema/Quote.js"
import { ReceiptResponse } from "../../schema/Receipt.js"
import { SearchResponse } from "../../schema/Search.js"
import { SwapResponse } from "../../schema/Swap.js"
import type { Answer } from "./PayingHttp.js"

/** An error answer: its HTTP status and the envelope (`error`, `next`, a replacement `quote`…). */
export class ServiceError extends Error {
  constructor(readonly status: number, readonly body: ErrorBody, readonly paid: bigint) {
    super(`${status} ${body.error.code}: ${body.error.message} (next: ${body.next})`)
    this.name = "ServiceError"
  }
}

/** A decoded answer and what the call paid. */
export interface Paid<A> {
  readonly value: A
  readonly paid: bigint
  readonly settlement: string | undefined
}

const decoded = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownSync(schema)
  const envelope = Schema.decodeUnknownSync(ErrorBody)
  return (answer: Answer): Paid<A> => {
    if (answer.status !== 200) throw new ServiceError(answer.status, envelope(answer.body), answer.paid)
    return { value: decode(answer.body), paid: answer.paid, settlement: answer.settlement }
  }
}

export const asSearch = decoded(SearchResponse)
export const asQuote = decoded(QuoteResponse)
/** A quote carried in an error envelope (the free replacement on `quote_stale`, `quote_expired`). */
export const quoteOf = Schema.decodeUnknownSync(QuoteResponse)
export const asSwap = decoded(SwapResponse)
export const asReceipt = decoded(ReceiptResponse)
export const asHealth = decoded(HealthResponse)

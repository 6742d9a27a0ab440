/**
 * The client's view of the API, typed from the very schemas the service decodes and encodes with
 * (`schema/`), so an answer the client reads is one the service could have written.
 */
import type { Schema } from "effect"
import type { ErrorBody } from "../../schema/ErrorBody.js"
import type { HealthResponse } from "../../schema/Health.js"
import type { QuoteResponse } from "../../schema/Quote.js"
import type { QuoteRequest } from "../../schema/QuoteRequest.js"
import type { ReceiptRequest, ReceiptResponse } from "../../schema/Receipt.js"
import type { SearchRequest, SearchResponse } from "../../schema/Search.js"
import type { SwapRequest, SwapResponse, SwapTxRequest, UnsignedTransaction as Unsigned } from "../../schema/Swap.js"
import type { SafetyVerdict, TokenFlag } from "../../schema/Token.js"

/** What a request sends: fields with a default on the wire may be left out. */
export type SearchInput = typeof SearchRequest.Encoded
export type QuoteInput = typeof QuoteRequest.Encoded
export type SwapInput = typeof SwapRequest.Encoded
export type SwapTxInput = typeof SwapTxRequest.Encoded
export type ReceiptInput = typeof ReceiptRequest.Encoded

export type UnsignedTransaction = Schema.Schema.Type<typeof Unsigned>
export type Verdict = SafetyVerdict["verdict"]

export type {
  ErrorBody,
  HealthResponse,
  QuoteRequest,
  QuoteResponse,
  ReceiptRequest,
  ReceiptResponse,
  SafetyVerdict,
  SearchRequest,
  SearchResponse,
  SwapRequest,
  SwapResponse,
  SwapTxRequest,
  TokenFlag
}

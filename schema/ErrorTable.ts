/**
 * The one table that gives every domain error its wire code, HTTP status, `next` and `retryAfterSec`.
 * It is typed over the union's tags, so a new error without a row does not compile.
 */
import { Schema } from "effect"
import type { TradeErrorFields, TradeErrorTag } from "./Errors.js"

export const Next = Schema.Literal("requote", "retry", "fix_request", "stop", "pay", "sign_permit").annotations({
  identifier: "Next",
  description: "what the caller should do next"
})
export type Next = typeof Next.Type

export interface ErrorRow {
  readonly code: string
  readonly status: number
  readonly next: Next
  readonly retryAfterSec?: number
}

export const errorTable = {
  InvalidRequest: { code: "invalid_request", status: 400, next: "fix_request" },
  TickerNotAllowed: { code: "ticker_not_allowed", status: 400, next: "fix_request" },
  InvalidAmount: { code: "invalid_amount", status: 400, next: "fix_request" },
  UnsupportedPair: { code: "unsupported_pair", status: 400, next: "fix_request" },
  UnknownVenue: { code: "unknown_venue", status: 400, next: "fix_request" },
  UnknownSource: { code: "unknown_source", status: 400, next: "fix_request" },
  TakerRequired: { code: "taker_required", status: 400, next: "fix_request" },
  TokenNotFound: { code: "token_not_found", status: 404, next: "fix_request" },
  PayloadTooLarge: { code: "payload_too_large", status: 413, next: "fix_request" },
  NoPendingSwap: { code: "no_pending_swap", status: 409, next: "fix_request" },
  // Not a spec code: an unknown path still gets the standard envelope.
  UnknownPath: { code: "not_found", status: 404, next: "fix_request" },
  // Not spec codes either: the HTTP edge refusing a request before any operation sees it.
  MethodNotAllowed: { code: "method_not_allowed", status: 405, next: "fix_request" },
  UnsupportedMediaType: { code: "unsupported_media_type", status: 415, next: "fix_request" },
  HeadersTooLarge: { code: "headers_too_large", status: 431, next: "fix_request" },
  ExpectationFailed: { code: "expectation_failed", status: 417, next: "fix_request" },
  RequestTimeout: { code: "request_timeout", status: 408, next: "fix_request" },
  QuoteNotFound: { code: "quote_not_found", status: 404, next: "requote" },
  QuoteStale: { code: "quote_stale", status: 409, next: "requote" },
  QuoteExpired: { code: "quote_expired", status: 410, next: "requote" },
  SwapAttemptsExhausted: { code: "swap_attempts_exhausted", status: 429, next: "requote" },
  RpcUnavailable: { code: "rpc_unavailable", status: 503, next: "retry", retryAfterSec: 2 },
  LookupRateLimited: { code: "lookup_rate_limited", status: 429, next: "retry", retryAfterSec: 1 },
  ReceiptRateLimited: { code: "receipt_rate_limited", status: 429, next: "retry", retryAfterSec: 5 },
  PaymentUnavailable: { code: "payment_unavailable", status: 502, next: "retry", retryAfterSec: 5 },
  NoRoute: { code: "no_route", status: 422, next: "stop" },
  InsufficientLiquidity: { code: "insufficient_liquidity", status: 422, next: "stop" },
  UnsupportedVenue: { code: "unsupported_venue", status: 422, next: "stop" },
  BuyReverts: { code: "buy_reverts", status: 422, next: "stop" },
  InsufficientBalance: { code: "insufficient_balance", status: 422, next: "stop" },
  SwapReverts: { code: "swap_reverts", status: 422, next: "stop" },
  CannotSell: { code: "cannot_sell", status: 422, next: "stop" },
  NotExecutable: { code: "not_executable", status: 422, next: "stop" },
  SwapNotFound: { code: "swap_not_found", status: 404, next: "stop" },
  ReceiptReadsExhausted: { code: "receipt_reads_exhausted", status: 429, next: "stop" },
  Internal: { code: "internal", status: 500, next: "stop" },
  // 499 is the de-facto status for a client that hung up; nobody reads it, but logs do.
  ClientClosed: { code: "client_closed", status: 499, next: "stop" },
  PaymentRequired: { code: "payment_required", status: 402, next: "pay" }
} as const satisfies { readonly [Tag in TradeErrorTag]: ErrorRow }

export const rowOf = (error: Pick<TradeErrorFields, "_tag">): ErrorRow => errorTable[error._tag]

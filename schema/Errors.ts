/**
 * Every domain error of the service: one tagged error per code of the spec.
 * Their HTTP status, `next` and `retryAfterSec` live in one table (`ErrorTable.ts`).
 */
import { Schema } from "effect"

/** One item of `invalid_request` details. */
export class Issue extends Schema.Class<Issue>("InvalidRequestIssue")({
  expected: Schema.String,
  code: Schema.String,
  path: Schema.Array(Schema.Union(Schema.String, Schema.Number)),
  message: Schema.String
}) {}

const Fields = {
  message: Schema.String,
  hint: Schema.optional(Schema.String)
}

export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  ...Fields,
  details: Schema.Array(Issue)
}) {}
/** An `invalid_request` about one field of the request: what was expected there, and what is wrong. */
export const invalidField = (
  path: ReadonlyArray<string | number>,
  issue: { readonly expected: string; readonly message: string; readonly code?: string }
) =>
  new InvalidRequest({
    message: issue.message,
    details: [
      new Issue({ expected: issue.expected, code: issue.code ?? "invalid_value", path, message: issue.message })
    ]
  })

export class TickerNotAllowed extends Schema.TaggedError<TickerNotAllowed>()("TickerNotAllowed", Fields) {}
export class InvalidAmount extends Schema.TaggedError<InvalidAmount>()("InvalidAmount", Fields) {}
export class UnsupportedPair extends Schema.TaggedError<UnsupportedPair>()("UnsupportedPair", Fields) {}
export class UnknownVenue extends Schema.TaggedError<UnknownVenue>()("UnknownVenue", Fields) {}
export class UnknownSource extends Schema.TaggedError<UnknownSource>()("UnknownSource", Fields) {}
export class TakerRequired extends Schema.TaggedError<TakerRequired>()("TakerRequired", Fields) {}
export class TokenNotFound extends Schema.TaggedError<TokenNotFound>()("TokenNotFound", Fields) {}
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", Fields) {}
export class NoPendingSwap extends Schema.TaggedError<NoPendingSwap>()("NoPendingSwap", Fields) {}
/** No endpoint at this method and path: not a spec code (`not_found`), distinct from routing's `no_route`. */
export class UnknownPath extends Schema.TaggedError<UnknownPath>()("UnknownPath", Fields) {}
// Refusals of the HTTP edge itself (not spec codes): the request never reached an operation.
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", Fields) {}
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", Fields) {}
export class HeadersTooLarge extends Schema.TaggedError<HeadersTooLarge>()("HeadersTooLarge", Fields) {}
export class ExpectationFailed extends Schema.TaggedError<ExpectationFailed>()("ExpectationFailed", Fields) {}
export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", Fields) {}
export class QuoteNotFound extends Schema.TaggedError<QuoteNotFound>()("QuoteNotFound", Fields) {}
/**
 * What `swap` attaches to `quote_stale` and `quote_expired`: the one free replacement quote per paid
 * quote, as its encoded answer body, and whether it can be traded (when not, `next` is `stop`).
 */
const Replaceable = {
  ...Fields,
  quote: Schema.optional(Schema.Object),
  tradable: Schema.optional(Schema.Boolean)
}
export class QuoteStale extends Schema.TaggedError<QuoteStale>()("QuoteStale", Replaceable) {}
export class QuoteExpired extends Schema.TaggedError<QuoteExpired>()("QuoteExpired", Replaceable) {}
export class SwapAttemptsExhausted extends Schema.TaggedError<SwapAttemptsExhausted>()(
  "SwapAttemptsExhausted",
  Fields
) {}
/** `report`, when set, is health's report while `down` (its encoded answer), served beside the envelope. */
export class RpcUnavailable extends Schema.TaggedError<RpcUnavailable>()("RpcUnavailable", {
  ...Fields,
  report: Schema.optional(Schema.Object)
}) {}
export class LookupRateLimited extends Schema.TaggedError<LookupRateLimited>()("LookupRateLimited", Fields) {}
/** `retryAfterSec`, when set, is the exact wait; otherwise the error table's. */
export class ReceiptRateLimited extends Schema.TaggedError<ReceiptRateLimited>()("ReceiptRateLimited", {
  ...Fields,
  retryAfterSec: Schema.optional(Schema.NonNegativeInt)
}) {}
export class PaymentUnavailable extends Schema.TaggedError<PaymentUnavailable>()("PaymentUnavailable", Fields) {}
export class NoRoute extends Schema.TaggedError<NoRoute>()("NoRoute", Fields) {}
export class InsufficientLiquidity extends Schema.TaggedError<InsufficientLiquidity>()(
  "InsufficientLiquidity",
  Fields
) {}
export class UnsupportedVenue extends Schema.TaggedError<UnsupportedVenue>()("UnsupportedVenue", Fields) {}
export class BuyReverts extends Schema.TaggedError<BuyReverts>()("BuyReverts", Fields) {}
export class InsufficientBalance extends Schema.TaggedError<InsufficientBalance>()("InsufficientBalance", Fields) {}
export class SwapReverts extends Schema.TaggedError<SwapReverts>()("SwapReverts", Fields) {}
export class CannotSell extends Schema.TaggedError<CannotSell>()("CannotSell", Fields) {}
export class NotExecutable extends Schema.TaggedError<NotExecutable>()("NotExecutable", Fields) {}
export class SwapNotFound extends Schema.TaggedError<SwapNotFound>()("SwapNotFound", Fields) {}
export class ReceiptReadsExhausted extends Schema.TaggedError<ReceiptReadsExhausted>()(
  "ReceiptReadsExhausted",
  Fields
) {}
export class Internal extends Schema.TaggedError<Internal>()("Internal", Fields) {}
export class ClientClosed extends Schema.TaggedError<ClientClosed>()("ClientClosed", Fields) {}
export class PaymentRequired extends Schema.TaggedError<PaymentRequired>()("PaymentRequired", Fields) {}

/** The union of every domain error. */
export const TradeError = Schema.Union(
  InvalidRequest,
  TickerNotAllowed,
  InvalidAmount,
  UnsupportedPair,
  UnknownVenue,
  UnknownSource,
  TakerRequired,
  TokenNotFound,
  PayloadTooLarge,
  NoPendingSwap,
  UnknownPath,
  MethodNotAllowed,
  UnsupportedMediaType,
  HeadersTooLarge,
  ExpectationFailed,
  RequestTimeout,
  QuoteNotFound,
  QuoteStale,
  QuoteExpired,
  SwapAttemptsExhausted,
  RpcUnavailable,
  LookupRateLimited,
  ReceiptRateLimited,
  PaymentUnavailable,
  NoRoute,
  InsufficientLiquidity,
  UnsupportedVenue,
  BuyReverts,
  InsufficientBalance,
  SwapReverts,
  CannotSell,
  NotExecutable,
  SwapNotFound,
  ReceiptReadsExhausted,
  Internal,
  ClientClosed,
  PaymentRequired
)
export type TradeError = typeof TradeError.Type
/** A domain error as its fields alone, the form the error envelope is written from. */
export type TradeErrorFields = typeof TradeError.Encoded
export type TradeErrorTag = TradeError["_tag"]

/**
 * What a model reads before calling any tool, beside each tool's own purpose (its declaration's
 * `tool.description`, src/operations/table.ts). A model that has never seen this API learns from these
 * lines alone what to send and what to call after each `next`, so every tool description ends with the
 * trade flow and the meaning of the `next` values.
 */

export const TRADE_FLOW =
  "Trade flow: tradeSearch -> tradeQuote -> tradeSwap -> (if next=sign_permit: sign the permit, then " +
  "tradeSwapTx) -> send the transactions in order from the taker's wallet -> tradeReceipt."

export const NEXT_GUIDE =
  "Every error result and some answers carry `next`: fix_request = correct the arguments and call again; " +
  "retry = call again unchanged, after `retryAfterSec` seconds when given; requote = call tradeQuote again " +
  "(or use the replacement `quote` when one is included); stop = do not retry this trade; pay = pay and retry; " +
  "sign_permit = sign signatures[0].typedData with the taker's wallet, then call tradeSwapTx (never send the " +
  "swap_placeholder transaction)."

export const PAYMENT_GUIDE =
  "Paid call: the first call without payment answers isError with the x402 v2 payment requirements " +
  "(x402Version, accepts[]) as structured content; sign an EIP-3009 authorization for accepts[0] in USDC " +
  "and call again with the signed payload in params._meta[\"x402/payment\"]. The settlement receipt " +
  "returns in _meta[\"x402/payment-response\"]. A result with isError is never charged."

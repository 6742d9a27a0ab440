/**
 * What a model reads before calling a tool. A model that has never seen this API learns from these
 * lines alone what a tool does, what to send, and what to call after each `next`, so each one ends
 * with the trade flow and the meaning of the `next` values the tool can answer with.
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

/** Per tool: what it does and what to do with its answer. */
export const toolPurpose: Readonly<Record<string, string>> = {
  health: "Service status: chain head, how far the index lags and RPC reachability. Call it when other tools " +
    "answer `retry` repeatedly; while the status is `down` the result is an error with next=retry.",
  tradeVenues: "Lists the exchanges (venues) this service routes through, the routing hub tokens and the launchpads, " +
    "with their ids. Use the ids to restrict or exclude venues in a quote.",
  tradeSearch: "Finds a token by ticker, name, name prefix or 0x address and returns the candidates most relevant " +
    "first, each with its address, decimals, liquidity and whether it can be sold back. Call it first: " +
    "tradeQuote needs the token's address. token_not_found (next=fix_request) means nothing matched.",
  tradeQuote: "Prices buying or selling a token across venues at the current block and simulates a buy and " +
    "sell-back from a fresh wallet. Answers a quoteId, the best route, the verdict and readiness. If " +
    "next=stop (verdict cannot_sell or illiquid, not executable, or not ready) do not trade; otherwise " +
    "pass quoteId to tradeSwap before the quote expires.",
  tradeSwap: "Turns a quote into UNSIGNED transactions for the taker's wallet to send (this service never signs " +
    "or sends). Send `transactions` one at a time in the order given (approvals first), exactly as given (to, " +
    "data, value, gas), each after the previous one mined. minAmountOut and amountOutSimulated are raw base " +
    "units of the buy token; a transaction's `value` is native USDC with 18 decimals. If next=sign_permit, " +
    "send nothing yet: sign signatures[0].typedData with the taker's wallet (EIP-712) and call tradeSwapTx, " +
    "which returns the transactions to send; never send a `swap_placeholder`. On quote_stale/quote_expired a " +
    "replacement `quote` may be included: review its price and verdict before using its quoteId.",
  tradeSwapTx: "Only after tradeSwap answered next=sign_permit: finishes the swap with the taker's permit. Send the " +
    "same quoteId, taker (and recipient, if tradeSwap had one) and permit = { message: " +
    "signatures[0].typedData.message exactly as tradeSwap returned it, signature: the taker wallet's EIP-712 " +
    "signature of signatures[0].typedData (0x hex) }. Answers the final unsigned transactions, any approval " +
    "still needed first: send them in that order from the taker's wallet, exactly as given. Works once per permit.",
  tradeReceipt: "After sending the transactions: pass the quoteId and the hashes of all you sent for it, " +
    "approvals and swap (1 to 4, sent by the taker's own wallet; smart-contract and delegated wallets are " +
    "refused). Answers pass (delivered >= minAmountOut, both raw base units of the buy token), pending or " +
    "fail. next=retry while pending (wait retryAfterSec; one chain read per quote every 5 s, 132 in all); " +
    "after a failure next=requote (nothing filled) or stop (a swap filled: do not send it again). Works for " +
    "one hour after tradeSwap."
}

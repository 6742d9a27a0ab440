/**
 * What a model reads before calling a tool. A model that has never seen this API learns from these
 * lines alone what a tool does, what to send, and what to call after each `next`, so each one ends
 * with the trade flow and the meaning of the `next` values the tool can answer with.
 */

export const TRADE_FLOW =
  "Trade flow: tradeSearch -> tradeQuote -> tradeSwap -> (sign the permit, then tradeSwapTx) -> send the " +
  "transactions from the taker's wallet -> tradeReceipt."

export const NEXT_GUIDE =
  "Every error result and some answers carry `next`: fix_request = correct the arguments and call again; " +
  "retry = call again unchanged, after `retryAfterSec` seconds when given; requote = call tradeQuote again " +
  "(or use the replacement `quote` when one is included); stop = do not retry this trade; pay = pay and retry; " +
  "sign_permit = sign signatures[0].typedData with the taker's wallet, then call tradeSwapTx (never send the " +
  "unfinished transaction)."

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
  tradeSwap: "Turns a quote into UNSIGNED transactions for the taker's wallet; paid once per quote. If next is " +
    "sign_permit, sign signatures[0].typedData with the taker's wallet and call tradeSwapTx; do not send " +
    "the unfinished transaction. On quote_stale/quote_expired a replacement `quote` may be included: " +
    "review its price and verdict before using its quoteId.",
  tradeSwapTx: "After a tradeSwap that answered next=sign_permit: send the permit signature and get the final " +
    "unsigned transaction to send from the taker's wallet. Works once per permit.",
  tradeReceipt: "After sending the transactions: pass the quoteId and the hashes of the swap and any approvals (1 to " +
    "4, sent by the taker's own wallet; smart-contract and delegated wallets are refused). Answers pass " +
    "(delivered >= minAmountOut), pending or fail, with what was delivered. next=retry while pending (wait " +
    "retryAfterSec; one chain read per quote every 5 s, 132 in all); after a failure next=requote (nothing " +
    "filled) or stop (a swap filled: do not send it again). Works for one hour after tradeSwap."
}

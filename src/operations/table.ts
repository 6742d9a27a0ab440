/**
 * The operation table: every operation of the service, declared once. The interpreter (./Run.ts) runs
 * them for both edges; HTTP routes and the OpenAPI document are derived from it (src/http/Api.ts,
 * src/http/Handlers.ts), and so are the payment gate's charges and the MCP tools (src/mcp/Tools.ts).
 * A new operation is a program in its own file plus one entry here.
 */
import {
  CannotSell,
  InsufficientBalance,
  InsufficientLiquidity,
  InvalidAmount,
  NoPendingSwap,
  NoRoute,
  NotExecutable,
  PaymentUnavailable,
  QuoteExpired,
  QuoteNotFound,
  QuoteStale,
  ReceiptRateLimited,
  ReceiptReadsExhausted,
  RpcUnavailable,
  SwapAttemptsExhausted,
  SwapNotFound,
  SwapReverts,
  TickerNotAllowed,
  TokenNotFound,
  UnknownVenue,
  UnsupportedPair
} from "../../schema/Errors.js"
import { HealthResponse } from "../../schema/Health.js"
import { QuoteResponse } from "../../schema/Quote.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ReceiptRequest, ReceiptResponse } from "../../schema/Receipt.js"
import { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { SwapRequest, SwapResponse, SwapTxRequest } from "../../schema/Swap.js"
import { VenuesResponse } from "../../schema/Venues.js"
import { quote } from "../quote/Quote.js"
import { receipt } from "../receipt/Receipt.js"
import { swap, SWAP_PRICE_RULE, swapCharge } from "../swap/Swap.js"
import { swapTx } from "../swap/SwapTx.js"
import { Cost } from "./Cost.js"
import { get, post } from "./Declare.js"
import { healthCheck } from "./health.js"
import { search } from "./search.js"
import { venues } from "./venues.js"

export const Health = get({
  name: "health",
  group: "system",
  path: "/health",
  summary: "Service status: chain head, index lag and age, RPC reachability (free); 503 while `down`",
  response: HealthResponse,
  // While `down`, `rpc_unavailable` carrying the report, served beside the envelope.
  errors: [RpcUnavailable],
  cost: Cost.free,
  run: () => healthCheck(),
  tool: {
    description: "Service status: chain head, how far the index lags and RPC reachability. Call it when other tools " +
      "answer `retry` repeatedly; while the status is `down` the result is an error with next=retry."
  }
})

export const Venues = get({
  name: "venues",
  group: "trade",
  path: "/trade/v1/venues",
  summary: "Venues, routing hubs and launchpads (free)",
  response: VenuesResponse,
  cost: Cost.free,
  run: () => venues(),
  tool: {
    description:
      "Lists the exchanges (venues) this service routes through, the routing hub tokens and the launchpads, " +
      "with their ids. Use the ids to restrict or exclude venues in a quote."
  }
})

export const Search = post({
  name: "search",
  group: "trade",
  path: "/trade/v1/search",
  summary: "Find a token by ticker, name, prefix or 0x address, most relevant first",
  request: SearchRequest,
  response: SearchResponse,
  errors: [TokenNotFound],
  cost: Cost.fixed((prices) => prices.search),
  run: search,
  tool: {
    description: "Finds a token by ticker, name, name prefix or 0x address and returns the candidates most relevant " +
      "first, each with its address, decimals, liquidity and whether it can be sold back. Call it first: " +
      "tradeQuote needs the token's address. token_not_found (next=fix_request) means nothing matched."
  }
})

export const Quote = post({
  name: "quote",
  group: "trade",
  path: "/trade/v1/quote",
  summary:
    "Price a trade across every venue: routes, the best plan, the sell-back verdict, readiness; returns a quoteId",
  request: QuoteRequest,
  response: QuoteResponse,
  errors: [
    TickerNotAllowed,
    InvalidAmount,
    UnsupportedPair,
    UnknownVenue,
    TokenNotFound,
    NoRoute,
    InsufficientLiquidity
  ],
  cost: Cost.fixed((prices) => prices.quote),
  run: quote,
  tool: {
    description: "Prices buying or selling a token across venues at the current block and simulates a buy and " +
      "sell-back from a fresh wallet. Answers a quoteId, the best route, the verdict and readiness. If " +
      "next=stop (verdict cannot_sell or illiquid, not executable, or not ready) do not trade; otherwise " +
      "pass quoteId to tradeSwap before the quote expires."
  }
})

export const Swap = post({
  name: "swap",
  group: "trade",
  path: "/trade/v1/swap",
  summary:
    "Unsigned transactions for a live quote, re-simulated from the taker's wallet; paid once per quote, by order size",
  request: SwapRequest,
  response: SwapResponse,
  errors: [
    QuoteNotFound,
    QuoteExpired,
    QuoteStale,
    SwapAttemptsExhausted,
    InsufficientBalance,
    SwapReverts,
    NotExecutable,
    CannotSell,
    PaymentUnavailable
  ],
  cost: Cost.fromInput(swapCharge, SWAP_PRICE_RULE),
  run: swap,
  tool: {
    description: "Turns a quote into UNSIGNED transactions for the taker's wallet to send (this service never signs " +
      "or sends). Send `transactions` one at a time in the order given (approvals first), exactly as given (to, " +
      "data, value, gas), each after the previous one mined. minAmountOut and amountOutSimulated are raw base " +
      "units of the buy token; a transaction's `value` is native USDC with 18 decimals. If next=sign_permit, " +
      "send nothing yet: sign signatures[0].typedData with the taker's wallet (EIP-712) and call tradeSwapTx, " +
      "which returns the transactions to send; never send a `swap_placeholder`. On quote_stale/quote_expired a " +
      "replacement `quote` may be included: review its price and verdict before using its quoteId."
  }
})

export const SwapTx = post({
  name: "swapTx",
  group: "trade",
  path: "/trade/v1/swap/tx",
  summary: "The final swap transaction for a signed Permit2 permit, once per permit round (free)",
  request: SwapTxRequest,
  response: SwapResponse,
  errors: [QuoteNotFound, QuoteExpired, QuoteStale, NoPendingSwap, SwapAttemptsExhausted, SwapReverts],
  cost: Cost.free,
  run: swapTx,
  tool: {
    description:
      "Only after tradeSwap answered next=sign_permit: finishes the swap with the taker's permit. Send the " +
      "same quoteId, taker (and recipient, if tradeSwap had one) and permit = { message: " +
      "signatures[0].typedData.message exactly as tradeSwap returned it, signature: the taker wallet's EIP-712 " +
      "signature of signatures[0].typedData (0x hex) }. Answers the final unsigned transactions, any approval " +
      "still needed first: send them in that order from the taker's wallet, exactly as given. Works once per permit."
  }
})

export const Receipt = post({
  name: "receipt",
  group: "trade",
  path: "/trade/v1/receipt",
  summary: "After sending the swap: pass (delivered >= minAmountOut), pending or fail, read from the chain (free)",
  request: ReceiptRequest,
  response: ReceiptResponse,
  errors: [SwapNotFound, ReceiptRateLimited, ReceiptReadsExhausted],
  cost: Cost.free,
  run: receipt,
  tool: {
    description: "After sending the transactions: pass the quoteId and the hashes of all you sent for it, " +
      "approvals and swap (1 to 4, sent by the taker's own wallet; smart-contract and delegated wallets are " +
      "refused). Answers pass (delivered >= minAmountOut, both raw base units of the buy token), pending or " +
      "fail. next=retry while pending (wait retryAfterSec; one chain read per quote every 5 s, 132 in all); " +
      "after a failure next=requote (nothing filled) or stop (a swap filled: do not send it again). Works for " +
      "one hour after tradeSwap."
  }
})

/** In the order the OpenAPI document lists them (the system group also holds two documents, src/http/). */
export const systemOperations = [Health] as const
export const tradeOperations = [Venues, Search, Quote, Swap, SwapTx, Receipt] as const
export const operations = [...systemOperations, ...tradeOperations] as const

/**
 * The operation table: every operation of the service, declared once. HTTP routes and the OpenAPI
 * document are derived from it (src/http/Api.ts, src/http/Handlers.ts), and so are the payment gate's
 * charges and the MCP tools (src/mcp/Tools.ts). A new operation is a program in its own file plus one
 * entry here.
 */
import { Schema } from "effect"
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
import { HealthResponse, HealthUnavailable } from "../../schema/Health.js"
import { QuoteResponse } from "../../schema/Quote.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ReceiptRequest, ReceiptResponse } from "../../schema/Receipt.js"
import { AgentRegistration } from "../../schema/Registration.js"
import { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { SwapRequest, SwapResponse, SwapTxRequest } from "../../schema/Swap.js"
import { VenuesResponse } from "../../schema/Venues.js"
import { quote } from "../quote/Quote.js"
import { checkQuoteRequest } from "../quote/Request.js"
import { receipt } from "../receipt/Receipt.js"
import { swap, SWAP_PRICE_RULE, swapCharge } from "../swap/Swap.js"
import { swapTx } from "../swap/SwapTx.js"
import { health, healthRefusal } from "./health.js"
import { openapi } from "./openapi.js"
import { Cost, get, post } from "./Operation.js"
import { registration } from "./registration.js"
import { search } from "./search.js"
import { venues } from "./venues.js"

export const OPENAPI_PATH = "/openapi.json"
export const REGISTRATION_PATH = "/.well-known/agent-registration.json"

export const Health = get({
  name: "health",
  group: "system",
  path: "/health",
  summary: "Service status: chain head, index lag and age, RPC reachability (free); 503 while `down`",
  description: "Reports the chain's head, how far and how long the index trails it, and whether the RPC node " +
    "answers; it never calls the chain itself. `status` is `ok`, `degraded` or `down`: while `down` the " +
    "answer is 503 with the report beside the `rpc_unavailable` envelope. Worth a look when other " +
    "operations keep answering `next: retry`.",
  response: HealthResponse,
  cost: Cost.free,
  run: () => health(),
  refusal: { error: RpcUnavailable, schema: HealthUnavailable, of: healthRefusal }
})

export const OpenApiDocument = get({
  name: "openapi",
  group: "system",
  path: OPENAPI_PATH,
  summary: "This OpenAPI 3.1 document (free)",
  description: "This document, generated from the service's one operation table, with `servers` set to the " +
    "service's public URL and each paid operation's configured price in `x-price`.",
  response: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  cost: Cost.free,
  run: () => openapi()
})

export const Registration = get({
  name: "registration",
  group: "system",
  path: REGISTRATION_PATH,
  summary: "ERC-8004 agent registration file naming the HTTP API and the MCP endpoint (free)",
  description: "The ERC-8004 agent registration file that registries and agents discover the service by: its " +
    "name, description and image, and its endpoints (this HTTP API, this document and the MCP server).",
  response: AgentRegistration,
  cost: Cost.free,
  run: () => registration()
})

export const Venues = get({
  name: "venues",
  group: "trade",
  path: "/trade/v1/venues",
  summary: "Venues, routing hubs and launchpads (free)",
  description: "The exchanges the service routes through, with the ids a quote's `venues` and `excludeVenues` " +
    "take, the hub tokens routes may pass through, and the launchpads whose tokens it recognises.",
  response: VenuesResponse,
  cost: Cost.free,
  run: () => venues()
})

export const Search = post({
  name: "search",
  group: "trade",
  path: "/trade/v1/search",
  summary: "Find a token by ticker, name, prefix or 0x address, most relevant first",
  request: SearchRequest,
  description: "Resolves a ticker, name, name prefix or 0x address to token candidates at the current block, the " +
    "most relevant first, each with its address, decimals, liquidity, verification evidence and, once " +
    "measured, whether it can be sold back. A quote needs the token's address from here.",
  response: SearchResponse,
  errors: [TokenNotFound],
  cost: Cost.fixed((prices) => prices.search),
  run: search
})

export const Quote = post({
  name: "quote",
  group: "trade",
  path: "/trade/v1/quote",
  summary:
    "Price a trade across every venue: routes, the best plan, the sell-back verdict, readiness; returns a quoteId",
  request: QuoteRequest,
  description: "Prices a buy or sell across every venue at the current block, simulates buying and selling back " +
    "from a fresh wallet, and answers the best plan with its verdict, readiness and a `quoteId` for " +
    "`swap` before `expiresAt`. `next: stop` means the token should not be traded.",
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
  check: checkQuoteRequest,
  run: quote
})

export const Swap = post({
  name: "swap",
  group: "trade",
  path: "/trade/v1/swap",
  summary:
    "Unsigned transactions for a live quote, re-simulated from the taker's wallet; paid once per quote, by order size",
  request: SwapRequest,
  description: "Turns a live quote into unsigned transactions for the taker's wallet, re-simulated from that " +
    "wallet: send them in order, approvals first, exactly as given. A sell through Permit2 first answers " +
    "`next: sign_permit` with the typed data to sign, and `swap/tx` returns the final transactions.",
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
  run: swap
})

export const SwapTx = post({
  name: "swapTx",
  group: "trade",
  path: "/trade/v1/swap/tx",
  summary: "The final swap transaction for a signed Permit2 permit, once per permit round (free)",
  request: SwapTxRequest,
  description: "Only after `swap` answered `next: sign_permit`: takes the permit signed by the taker and answers " +
    "the final unsigned transactions, any approval still needed first. Works once per permit round.",
  response: SwapResponse,
  errors: [QuoteNotFound, QuoteExpired, QuoteStale, NoPendingSwap, SwapAttemptsExhausted, SwapReverts],
  cost: Cost.free,
  run: swapTx
})

export const Receipt = post({
  name: "receipt",
  group: "trade",
  path: "/trade/v1/receipt",
  summary: "After sending the swap: pass (delivered >= minAmountOut), pending or fail, read from the chain (free)",
  request: ReceiptRequest,
  description: "After the transactions were sent: reads them from the chain and answers `pass` (delivered at " +
    "least `minAmountOut`), `pending` (ask again after `retryAfterSec`) or `fail`, amounts in base units " +
    "of the buy token. Answers for one hour after `swap`.",
  response: ReceiptResponse,
  errors: [SwapNotFound, ReceiptRateLimited, ReceiptReadsExhausted],
  cost: Cost.free,
  run: receipt
})

/** In the order the OpenAPI document lists them. */
export const systemOperations = [Health, OpenApiDocument, Registration] as const
export const tradeOperations = [Venues, Search, Quote, Swap, SwapTx, Receipt] as const
export const operations = [...systemOperations, ...tradeOperations] as const

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
  response: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  cost: Cost.free,
  run: () => openapi()
})

export const Registration = get({
  name: "registration",
  group: "system",
  path: REGISTRATION_PATH,
  summary: "ERC-8004 agent registration file naming the HTTP API and the MCP endpoint (free)",
  response: AgentRegistration,
  cost: Cost.free,
  run: () => registration()
})

export const Venues = get({
  name: "venues",
  group: "trade",
  path: "/trade/v1/venues",
  summary: "Venues, routing hubs and launchpads (free)",
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
  response: ReceiptResponse,
  errors: [SwapNotFound, ReceiptRateLimited, ReceiptReadsExhausted],
  cost: Cost.free,
  run: receipt
})

/** In the order the OpenAPI document lists them. */
export const systemOperations = [Health, OpenApiDocument, Registration] as const
export const tradeOperations = [Venues, Search, Quote, Swap, SwapTx, Receipt] as const
export const operations = [...systemOperations, ...tradeOperations] as const

/**
 * The operation table: every operation of the service, declared once. The interpreter (./Run.ts) runs
 * them for both edges; HTTP routes and the OpenAPI document are derived from it (src/http/Api.ts,
 * src/http/Handlers.ts), and so are the payment gate's charges and the MCP tools (src/mcp/Tools.ts).
 * A new operation is a program in its own file plus one entry here (the operations after a quote are
 * declared in `tableSwap.ts`).
 */
import {
  InsufficientLiquidity,
  InvalidAmount,
  NoRoute,
  RpcUnavailable,
  TickerNotAllowed,
  TokenNotFound,
  UnknownVenue,
  UnsupportedPair
} from "../../schema/Errors.js"
import { HealthResponse } from "../../schema/Health.js"
import { QuoteResponse } from "../../schema/Quote.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { VenuesResponse } from "../../schema/Venues.js"
import { quote } from "../quote/Quote.js"
import { checkQuoteRequest } from "../quote/Request.js"
import { Cost } from "./Cost.js"
import { get, post } from "./Declare.js"
import { healthCheck } from "./health.js"
import { search } from "./search.js"
import { Receipt, Swap, SwapTx } from "./tableSwap.js"
import { venues } from "./venues.js"

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
  // While `down`, `rpc_unavailable` carrying the report, served beside the envelope.
  errors: [RpcUnavailable],
  cost: Cost.free,
  run: () => healthCheck(),
  // It reads the head itself (shared with concurrent callers), never the index snapshot.
  ownHead: true,
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
  description: "The exchanges the service routes through, with the ids a quote's `venues` and `excludeVenues` " +
    "take, the hub tokens routes may pass through, and the launchpads whose tokens it recognises.",
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
  description: "Resolves a ticker, name, name prefix or 0x address to token candidates at the current block, the " +
    "most relevant first, each with its address, decimals, liquidity, verification evidence and, once " +
    "measured, whether it can be sold back. A quote needs the token's address from here.",
  response: SearchResponse,
  errors: [TokenNotFound],
  cost: Cost.fixed((prices) => prices.search),
  run: search,
  readOnly: true,
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
  run: quote,
  tool: {
    description: "Prices buying or selling a token across venues at the current block and simulates a buy and " +
      "sell-back from a fresh wallet. Answers a quoteId, the best route, the verdict and readiness. If " +
      "next=stop (verdict cannot_sell or illiquid, not executable, or not ready) do not trade; otherwise " +
      "pass quoteId to tradeSwap before the quote expires."
  }
})

/** In the order the OpenAPI document lists them (the system group also holds two documents, src/http/). */
export const systemOperations = [Health] as const
export const tradeOperations = [Venues, Search, Quote, Swap, SwapTx, Receipt] as const
export const operations = [...systemOperations, ...tradeOperations] as const

/**
 * A client for agents: each operation of the API as a method, paid with x402 under a budget, answers
 * decoded with the service's own schemas; `trade` runs a whole trade (./Trade.ts). It imports nothing of
 * the server: only the wire schemas and the x402 client packages.
 *
 *   const client = new TradeClient({ baseUrl, payer: account, budget: { perCall: 50_000n, perSession: 1_000_000n } })
 *   const result = await client.trade({ sell: USDC, buy: weth, amount: "25", wallet, onStep: console.log })
 */
import type { LocalAccount } from "viem"
import { USDC_ADDRESS } from "../../schema/Chain.js"
import { type Budget, budget, type BudgetLimits } from "./Budget.js"
import { asHealth, asQuote, asReceipt, asSearch, asSwap } from "./Decoded.js"
import { type PayingHttp, payingHttp } from "./PayingHttp.js"
import { tradeFlow, type TradeRequest, type TradeResult, untilIndexed as indexedAt } from "./Trade.js"
import type { QuoteInput, ReceiptInput, SearchInput, SwapInput, SwapTxInput } from "./Types.js"

export interface TradeClientOptions {
  readonly baseUrl: string
  /** Signs the x402 payments (its USDC pays the fees). */
  readonly payer: LocalAccount
  readonly budget: BudgetLimits
  /** Default `eip155:5042` (Arc). */
  readonly network?: `${string}:${string}`
  readonly usdc?: string
  readonly fetch?: typeof fetch
}

export class TradeClient {
  private readonly http: PayingHttp
  private readonly budget: Budget

  constructor(readonly options: TradeClientOptions) {
    this.budget = budget(options.budget)
    this.http = payingHttp({
      baseUrl: options.baseUrl.replace(/\/$/, ""),
      payer: options.payer,
      budget: this.budget,
      perCall: options.budget.perCall,
      usdc: options.usdc ?? USDC_ADDRESS,
      network: options.network ?? "eip155:5042",
      ...(options.fetch === undefined ? {} : { fetch: options.fetch })
    })
  }

  /** USDC base units the service charged this client so far. */
  spent = () => this.budget.spent()
  /** What the session budget still allows. */
  left = () => this.budget.left()

  search = async (request: SearchInput) => asSearch(await this.http.post("/trade/v1/search", request))
  quote = async (request: QuoteInput) => asQuote(await this.http.post("/trade/v1/quote", request))
  swap = async (request: SwapInput) => asSwap(await this.http.post("/trade/v1/swap", request))
  swapTx = async (request: SwapTxInput) => asSwap(await this.http.post("/trade/v1/swap/tx", request))
  receipt = async (request: ReceiptInput) => asReceipt(await this.http.post("/trade/v1/receipt", request))
  health = async () => asHealth(await this.http.get("/health"))

  /** Waits until the service's index holds `block` (after a transaction of the agent's own, say). */
  untilIndexed = (block: bigint) => indexedAt(this, block)

  /** The whole trade: quote, policy, swap, permit, send, receipt (./Trade.ts). */
  trade = (request: TradeRequest): Promise<TradeResult> => tradeFlow(this, request)
}

/**
 * The `quote` answer: both sides of the trade, every candidate route, the chosen plan, the safety
 * verdict and, when a taker was sent, its readiness. `next` is `swap` when the quote can be traded and
 * `stop` when it cannot (verdict `cannot_sell` or `illiquid`, a non-executable plan, a taker not ready).
 */
import { Schema } from "effect"
import { Address, BlockNumber, DecimalString, IsoDateTime, Network, QuoteId, RawAmount } from "./Primitives.js"
import { Readiness } from "./Readiness.js"
import { BestPlan, Route } from "./Route.js"
import { Discovered, SafetyVerdict, TokenState, Verification } from "./Token.js"

const SideVerification = Verification.pipe(Schema.pick("status", "source", "trust"))

export const QuoteSell = Schema.Struct({
  address: Address,
  symbol: Schema.String,
  decimals: Schema.NonNegativeInt,
  amount: DecimalString.annotations({ description: "exactIn: the sell amount; exactOut: the quoted input" }),
  amountRaw: RawAmount,
  verification: SideVerification,
  state: TokenState
}).annotations({ identifier: "QuoteSell" })

export const QuoteBuy = Schema.Struct({
  address: Address,
  symbol: Schema.String,
  decimals: Schema.NonNegativeInt,
  verification: SideVerification,
  state: TokenState,
  discovered: Discovered
}).annotations({ identifier: "QuoteBuy" })

export const QuoteWarning = Schema.Literal(
  "graph_execution_unavailable",
  "safety_not_measured",
  "unpriced_candidates",
  "gas_not_netted",
  "priced_by_simulation"
).annotations({
  description: "`graph_execution_unavailable`: no router executes a selected venue (or the operator disabled it); " +
    "`safety_not_measured`: no sell-back simulation was available for this quote, `safety` is null; " +
    "`unpriced_candidates`: some routes need a simulation to be priced and were left out of the plan; " +
    "`gas_not_netted`: the objective token has no USD price, so gas is reported but not netted; " +
    "`priced_by_simulation`: the best plan crosses a hooked v4 pool priced by simulating the swap at the " +
    "quote's block (see the route's `pricedBy`); `swap` re-simulates it from the taker before building"
})

export const QuoteNext = Schema.Literal("swap", "stop").annotations({
  description: "`swap`: call `swap` with this `quoteId`; `stop`: do not trade this quote"
})

export const QuoteResponse = Schema.Struct({
  quoteId: QuoteId,
  network: Network,
  block: BlockNumber,
  expiresAt: IsoDateTime,
  side: Schema.Literal("exactIn", "exactOut"),
  slippageBps: Schema.Int,
  sell: QuoteSell,
  buy: QuoteBuy,
  routes: Schema.Array(Route),
  best: BestPlan,
  safety: Schema.NullOr(SafetyVerdict).annotations({
    description: "the sell-back verdict of the chosen route at `block`; null when none could be measured"
  }),
  readiness: Schema.optional(Readiness),
  gasUsdc: DecimalString.annotations({ description: "estimated gas of the chosen plan, in USDC" }),
  next: QuoteNext,
  warnings: Schema.Array(QuoteWarning)
}).annotations({ identifier: "QuoteResponse" })
export type QuoteResponse = typeof QuoteResponse.Type

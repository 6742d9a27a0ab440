/**
 * Routes: the discovery candidates of a quote, and the plan it chose (`best`).
 */
import { Schema } from "effect"
import { Address, Bps, DecimalString, RawAmount } from "./Primitives.js"

export const RouteType = Schema.Literal("direct", "two_hop", "multi_hop", "split").annotations({
  description:
    "`direct`: one pool; `two_hop`: two pools through a hub; `multi_hop`: three pools (`maxHops` 3); `split`: several paths"
})

export const RouteHop = Schema.Struct({
  venue: Schema.String,
  poolId: Schema.String.annotations({ description: "pool address, or the bytes32 pool id on a singleton venue" }),
  tokenIn: Schema.String.annotations({ description: "symbol" }),
  tokenOut: Schema.String.annotations({ description: "symbol" }),
  tokenInAddress: Address,
  tokenOutAddress: Address,
  feeBps: Schema.NullOr(Bps).annotations({ description: "null when a hook sets the fee per swap" }),
  hooks: Schema.optional(Schema.NullOr(Address))
}).annotations({ identifier: "RouteHop" })
export type RouteHop = typeof RouteHop.Type

/** Fees of a path or leg: its pools' liquidity-provider fees, charged in the input token (the service takes none from the trade). */
export const RouteFee = Schema.Struct({
  bps: Bps,
  amount: DecimalString,
  token: Address,
  collector: Schema.NullOr(Address)
}).annotations({ identifier: "RouteFee" })

export const Route = Schema.Struct({
  type: RouteType,
  routeId: Schema.String.annotations({
    description: "`<sell>><buy>|<venue>:<poolId>` with `><venue>:<poolId>` per extra hop"
  }),
  provider: Schema.String,
  hops: Schema.Array(RouteHop),
  amountOutQuoted: Schema.optional(DecimalString).annotations({
    description: "the path alone for the whole order; absent when it could not be priced exactly (see `unpricedReason`)"
  }),
  amountInQuoted: Schema.optional(DecimalString).annotations({
    description: "exactOut: the input the path alone needs"
  }),
  pricedBy: Schema.optional(Schema.Literal("index", "simulation")).annotations({
    description: "how the path was priced: `index`, exactly from indexed pool state; `simulation`, a hooked v4 " +
      "pool on it (a hook that sets the fee per swap or returns deltas) was priced by running the swap through " +
      "the venue's quoter at the quote's block. Absent when the path could not be priced"
  }),
  unpricedReason: Schema.optional(Schema.String).annotations({
    description:
      "why the path was not priced: `dynamic_fee`, `hook_delta`, `fee_on_transfer_input` (needs a simulation), " +
      "`insufficient_liquidity`, `curve_complete`, `dominated` (exactIn: cannot enter the best plan, its rate at " +
      "zero size being below a direct path's marginal at the whole order)"
  }),
  buyTaxBps: Bps,
  costVsMidBps: Schema.NullOr(Bps),
  gasUsdc: DecimalString,
  fee: RouteFee,
  executable: Schema.Boolean,
  providerQuoteAgeBlocks: Schema.NonNegativeInt,
  partialFill: Schema.Boolean
}).annotations({ identifier: "Route" })
export type Route = typeof Route.Type

/** One path of a plan whose input or output is USDC: its share of the order and its hops. */
export const PlanLeg = Schema.Struct({
  routeId: Schema.String,
  hops: Schema.Array(RouteHop),
  shareBps: Schema.Int.pipe(Schema.between(1, 10_000)),
  amountIn: DecimalString,
  amountInRaw: RawAmount,
  amountOutQuoted: DecimalString,
  amountOutQuotedRaw: RawAmount
}).annotations({ identifier: "PlanLeg" })

/** One pool swap of a graph plan: an amount of one token into one pool. */
export const PlanEdge = Schema.Struct({
  path: Schema.NonNegativeInt.annotations({
    description: "the path (sell token to buy token) this swap belongs to; a path's swaps are consecutive"
  }),
  venue: Schema.String,
  poolId: Schema.String,
  tokenInAddress: Address,
  tokenOutAddress: Address,
  amountInRaw: RawAmount,
  amountOutRaw: RawAmount,
  feeBps: Schema.NullOr(Bps),
  hooks: Schema.optional(Schema.NullOr(Address))
}).annotations({ identifier: "PlanEdge" })

/** A plan that is a flow through a token graph; edges run in order, each spending what earlier edges produced. */
export const PlanGraph = Schema.Struct({
  tokens: Schema.Array(Address),
  edges: Schema.Array(PlanEdge)
}).annotations({ identifier: "PlanGraph" })

export const BestPlan = Schema.Struct({
  type: Schema.Literal("direct", "two_hop", "split", "graph"),
  legs: Schema.Array(PlanLeg),
  graph: Schema.NullOr(PlanGraph),
  executable: Schema.Boolean,
  amountIn: DecimalString,
  amountInRaw: RawAmount,
  amountOutQuoted: DecimalString,
  amountOutQuotedRaw: RawAmount,
  minAmountOut: DecimalString,
  minAmountOutRaw: RawAmount,
  maxAmountIn: Schema.optional(DecimalString).annotations({
    description: "exactOut only: the most the swap may spend"
  }),
  fees: Schema.Array(RouteFee)
}).annotations({ identifier: "BestPlan" })
export type BestPlan = typeof BestPlan.Type

/**
 * A stored quote's plan priced again on the current pool state: the same pools, in the same order,
 * with the same amounts on each leg (exactIn: each leg's input; exactOut: each leg's output), and the
 * transfer taxes the quote measured. `swap` executes what this returns, so the transactions carry
 * exactly the quoted plan, with step limits from today's prices. A plan across a hooked pool (priced by
 * simulation at quote time) cannot be priced from the index: its quoted amounts stand, and the taker's
 * own simulation of the swap decides whether the quote still holds.
 */
import type { Hex } from "../../schema/Chain.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import type { Market } from "../routing/Market.js"
import { makePath, noTaxes, type Path } from "../routing/Path.js"
import { execute, type Failure, type Plan } from "../routing/Plan.js"
import { judgedToken, taxesOf } from "../safety/QuoteVerdict.js"

export type Repriced =
  | { readonly _tag: "Priced"; readonly plan: Plan }
  | { readonly _tag: "AsQuoted"; readonly plan: Plan }
  | { readonly _tag: "Unpriced"; readonly failure: Failure }

/** The plan's legs as paths, with the amount each leg was quoted for. */
const legsOf = (record: QuoteRecord) => {
  const legs = new Map<number, Array<QuoteRecord["plan"]["edges"][number]>>()
  for (const edge of record.plan.edges) legs.set(edge.path, [...(legs.get(edge.path) ?? []), edge])
  return [...legs.values()].map((edges) => ({
    edges,
    path: makePath(edges.map((edge) => ({
      poolId: edge.poolId,
      venue: edge.venue,
      kind: edge.kind,
      tokenIn: edge.tokenIn,
      tokenOut: edge.tokenOut
    }))) satisfies Path,
    amount: record.side === "exactIn" ? edges[0]!.amountIn : edges[edges.length - 1]!.amountOut
  }))
}

export const repricePlan = (record: QuoteRecord, market: Market, usdc: Hex): Repriced => {
  const legs = legsOf(record)
  const sell = record.sell
  const buy = record.buy
  const taxes = taxesOf(record.safety, judgedToken({ tokenIn: sell, tokenOut: buy }, usdc)) ?? noTaxes
  const planOf = (legsRun: Plan["legs"], amountIn: bigint, amountOut: bigint): Plan => ({
    side: record.side,
    tokenIn: sell,
    tokenOut: buy,
    amountIn,
    amountOut,
    legs: legsRun,
    gasUnits: record.gasUnits,
    gasUsdcRaw: 0n,
    gasInToken: 0n
  })
  const run = execute(market, legs.map((leg) => leg.path), legs.map((leg) => leg.amount), record.side, taxes)
  if (run._tag === "Filled") return { _tag: "Priced", plan: planOf(run.legs, run.amountIn, run.amountOut) }
  if (run._tag !== "NeedsSimulation" || run.reason === "fee_on_transfer_input") {
    return { _tag: "Unpriced", failure: run }
  }
  const quoted = legs.map(({ edges, path }) => ({
    path,
    amountIn: edges[0]!.amountIn,
    amountOut: edges[edges.length - 1]!.amountOut,
    fills: edges.map((edge, i) => ({ hop: path.hops[i]!, amountIn: edge.amountIn, amountOut: edge.amountOut }))
  }))
  return { _tag: "AsQuoted", plan: planOf(quoted, record.amountIn, record.amountOut) }
}

/** Whether the plan still keeps the quote's promise: exactIn at least the minimum out, exactOut at most the maximum in. */
export const keepsPromise = (record: QuoteRecord, plan: Plan): boolean =>
  record.side === "exactIn" ? plan.amountOut >= record.minAmountOut : plan.amountIn <= record.maxAmountIn

/**
 * A quote's last step: the stored quote as the caller reads it. Amounts in decimals beside base units,
 * every candidate route, the warnings that qualify the plan, and `next` by the stop rule (../Stop.ts).
 * Formatting only: nothing is priced or read here.
 */
import { formatUnits } from "viem"
import type { QuoteResponse } from "../../../schema/Quote.js"
import { checksumOf } from "../../routing/Checksum.js"
import { planFees, presentRoutes } from "../Present.js"
import { stopReason } from "../Stop.js"
import type { Recorded } from "./Record.js"

const warningsOf = ({ bestExecutable, routes, safety, search }: Recorded): QuoteResponse["warnings"] => {
  const warnings: Array<QuoteResponse["warnings"][number]> = []
  if (!bestExecutable) warnings.push("graph_execution_unavailable")
  if (safety === null) warnings.push("safety_not_measured")
  if (routes.candidates.some((c) => c.run._tag === "NeedsSimulation")) warnings.push("unpriced_candidates")
  if (search.gas.tokenPrice === null) warnings.push("gas_not_netted")
  if (routes.best.legs.some((leg) => leg.fills.some((fill) => fill.simulated))) warnings.push("priced_by_simulation")
  return warnings
}

export const present = (recorded: Recorded): QuoteResponse => {
  const { bestExecutable, buy, context, maxAmountIn, minAmountOut, readiness, record, routes, safety, sell } = recorded
  const plan = routes.best
  const side = record.side
  const stop = stopReason({ safety, executable: bestExecutable, ready: readiness?.ready }) !== undefined
  return {
    quoteId: record.quoteId,
    network: record.network,
    block: record.block,
    expiresAt: new Date(record.expiresAtMs).toISOString(),
    side,
    slippageBps: record.request.slippageBps,
    sell: {
      address: checksumOf(record.sell),
      symbol: sell.symbol,
      decimals: sell.decimals,
      amount: formatUnits(plan.amountIn, sell.decimals),
      amountRaw: plan.amountIn.toString(),
      verification: sell.verification,
      state: sell.state
    },
    buy: {
      address: checksumOf(record.buy),
      symbol: buy.symbol,
      decimals: buy.decimals,
      verification: buy.verification,
      state: buy.state,
      discovered: buy.discovered
    },
    routes: presentRoutes(context, routes.candidates),
    best: {
      ...recorded.shape,
      executable: bestExecutable,
      amountIn: formatUnits(plan.amountIn, sell.decimals),
      amountInRaw: plan.amountIn.toString(),
      amountOutQuoted: formatUnits(plan.amountOut, buy.decimals),
      amountOutQuotedRaw: plan.amountOut.toString(),
      minAmountOut: formatUnits(minAmountOut, buy.decimals),
      minAmountOutRaw: minAmountOut.toString(),
      ...(side === "exactOut" ? { maxAmountIn: formatUnits(maxAmountIn, sell.decimals) } : {}),
      fees: planFees(context, plan)
    },
    safety,
    ...(readiness === undefined ? {} : { readiness }),
    gasUsdc: formatUnits(plan.gasUsdcRaw, 6),
    next: stop ? "stop" : "swap",
    warnings: warningsOf(recorded)
  }
}

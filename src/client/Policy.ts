/**
 * When the agent refuses a quote before paying for its swap. The defaults protect: a token that cannot
 * be sold back, has no depth to sell into, or could not be judged stops the trade, as does a quote the
 * service itself says not to trade (`next: stop`) or one whose sell-back nobody measured.
 */
import type { QuoteResponse, TokenFlag, Verdict } from "./Types.js"

export interface TradePolicy {
  /** Verdicts that stop the trade (default `cannot_sell`, `illiquid`, `inconclusive`). */
  readonly stopOn?: ReadonlyArray<Verdict>
  /** Owner powers read from the chain that stop the trade (default none: they inform). */
  readonly stopOnFlags?: ReadonlyArray<TokenFlag>
  /** Trade a quote whose `safety` is null (no sell-back simulation was available). Default false. */
  readonly allowUnmeasured?: boolean
}

export const defaultStops: ReadonlyArray<Verdict> = ["cannot_sell", "illiquid", "inconclusive"]

/** Why the quote must not be traded under `policy`, or undefined when it may. */
export const refusalOf = (quote: QuoteResponse, policy: TradePolicy = {}): string | undefined => {
  if (quote.next !== "swap") {
    const ready = quote.readiness === undefined ? "" : `, taker ready ${quote.readiness.ready}`
    return `the service says stop (verdict ${quote.safety?.verdict ?? "not measured"}${ready})`
  }
  const safety = quote.safety
  if (safety === null) return policy.allowUnmeasured === true ? undefined : "the sell-back was not measured"
  if ((policy.stopOn ?? defaultStops).includes(safety.verdict)) {
    return `verdict ${safety.verdict}${safety.reason === undefined ? "" : `: ${safety.reason}`}`
  }
  const flagged = (safety.flags ?? []).filter((flag) => (policy.stopOnFlags ?? []).includes(flag))
  return flagged.length === 0 ? undefined : `owner powers ${flagged.join(", ")}`
}

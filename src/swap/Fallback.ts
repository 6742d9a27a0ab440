/**
 * The spec's endpoint rule 3: when the operator disabled a venue of the chosen plan (or the router
 * cannot reach it), `swap` may fall back to another candidate the quote already priced. The quote keeps
 * its best executable single-path candidates for that (`QuoteRecord.fallbacks`).
 */
import type { QuoteRecord, StoredEdge } from "../../schema/QuoteRecord.js"

/**
 * The quote as it will execute: its plan when every venue on it can run through the router now,
 * otherwise its best executable fallback candidate (with that candidate's own amounts and minimum).
 */
export const executableRecord = (record: QuoteRecord, runs: (venue: string) => boolean): QuoteRecord | undefined => {
  const executable = (edges: ReadonlyArray<StoredEdge>) => edges.every((edge) => runs(edge.venue))
  if (record.plan.executable && executable(record.plan.edges)) return record
  const fallback = record.fallbacks.find((candidate) => executable(candidate.edges))
  if (fallback === undefined) return undefined
  return {
    ...record,
    plan: { type: fallback.edges.length === 1 ? "direct" : "two_hop", edges: fallback.edges, executable: true },
    amountIn: fallback.amountIn,
    amountOut: fallback.amountOut,
    minAmountOut: fallback.minAmountOut,
    maxAmountIn: fallback.maxAmountIn
  }
}

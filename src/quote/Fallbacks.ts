/**
 * What a quote stores of its plans for `swap`: the plan's edges in execution order, and, for a plan the
 * router cannot execute, the best few executable candidates priced alone for the whole order to fall
 * back to.
 */
import type { Fallback, StoredEdge } from "../../schema/QuoteRecord.js"
import type { QuoteRequest } from "../../schema/QuoteRequest.js"
import type { Candidate } from "../routing/FindRoute.js"
import type { Path } from "../routing/Path.js"
import type { PlanEdgeFill } from "../routing/Plan.js"
import { maxAmountInOf, minAmountOutOf } from "./Present.js"

export const storedEdge = (edge: PlanEdgeFill): StoredEdge => ({
  path: edge.leg,
  venue: edge.hop.venue,
  kind: edge.hop.kind,
  poolId: edge.hop.poolId,
  tokenIn: edge.hop.tokenIn,
  tokenOut: edge.hop.tokenOut,
  amountIn: edge.amountIn,
  amountOut: edge.amountOut
})

const FALLBACKS = 3

/** The best few executable candidates priced alone for the whole order, for `swap` to fall back to. */
export const fallbacksOf = (
  candidates: ReadonlyArray<Candidate>,
  executable: (path: Path) => boolean,
  side: QuoteRequest["side"],
  slippageBps: number
): Array<Fallback> =>
  candidates
    .flatMap((candidate) =>
      candidate.run._tag === "Filled" && executable(candidate.path) ? [{ ...candidate.run, path: candidate.path }] : []
    )
    .sort((a, b) => side === "exactIn" ? Number(b.amountOut - a.amountOut) : Number(a.amountIn - b.amountIn))
    .slice(0, FALLBACKS)
    .map((run) => {
      const priced = { side, amountIn: run.amountIn, amountOut: run.amountOut }
      return {
        edges: run.fills.map((fill) => storedEdge({ ...fill, leg: 0 })),
        amountIn: run.amountIn,
        amountOut: run.amountOut,
        minAmountOut: minAmountOutOf(priced, slippageBps),
        maxAmountIn: maxAmountInOf(priced, slippageBps)
      }
    })

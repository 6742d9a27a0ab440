/**
 * The best split of an order: which candidate paths to use (./SubsetSearch.ts: every subset of at most
 * `maxSplits` paths considered, each path's value taken as linear between fixed points) and how much each
 * carries (./Split.ts: exact marginal equalisation from the allocation on those lines). The lines rank
 * subsets only to within their error (largest at a position's range end; paths that share a pool are
 * priced together at the allocation on the lines, below their optimum), so the best subset on the lines
 * is optimised exactly, then the kept subset whose upper bound is highest if that bound can still beat
 * it; the best plan net of gas is kept.
 */
import { gasInToken, pathGasUnits } from "./Gas.js"
import type { Path, TransferTaxes } from "./Path.js"
import { execute, type Plan } from "./Plan.js"
import { better, netValue, planOf, type RouteRequest } from "./RouteSearch.js"
import { equaliseMarginals } from "./Split.js"
import { objective } from "./SplitObjective.js"
import { bestSubsets } from "./SubsetSearch.js"

/**
 * Subsets kept from the search on the lines, and at most how many of them are optimised exactly: the
 * best on the lines, then the one whose bound is highest (the `REFINED` highest are kept whatever their
 * rank on the lines).
 */
const KEPT = 2
const REFINED = 2

export const bestSplit = (request: RouteRequest, paths: ReadonlyArray<Path>, taxes: TransferTaxes): Plan | null => {
  const common = { market: request.market, side: request.side, total: request.amount, taxes }
  const choices = bestSubsets({
    ...common,
    paths,
    maxSplits: request.maxSplits,
    gas: paths.map((path) => gasInToken(request.gas, pathGasUnits(request.gas, path))),
    keep: KEPT,
    keepByBound: REFINED
  })
  let best: Plan | null = null
  // The best on the lines first (most often the best), then any other whose bound can still beat it.
  const [top, ...rest] = choices.filter((choice) => choice.members.length > 1)
  const queue = top === undefined ? [] : [top, ...rest.sort((a, b) => b.bound - a.bound)]
  for (const [n, choice] of queue.entries()) {
    if (n >= REFINED || (best !== null && choice.bound <= Number(netValue(best)))) break
    const members = choice.members.map((i) => paths[i]!)
    const problem = { ...common, paths: members, maxSplits: members.length }
    const f = objective(problem)
    // The search keeps only allocations that fill (shared pools priced together); the optimiser needs one.
    if (f.value(choice.amounts) === null) continue
    const outcome = equaliseMarginals(problem, choice.amounts, f)
    best = better(best, planOf(request, execute(request.market, members, outcome.amounts, request.side, taxes)))
  }
  return best
}

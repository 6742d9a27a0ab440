/**
 * The best split of an order: which candidate paths to use (./SubsetSearch.ts, every subset of at most
 * `maxSplits` paths considered on a grid) and how much each carries (./Split.ts, exact marginal
 * equalisation from the grid allocation). The best few subsets on the grid are each optimised exactly
 * (the grid ranks subsets to within its resolution, and values paths that share a pool alone) and the
 * best plan net of gas is kept.
 */
import { gasInToken, pathGasUnits } from "./Gas.js"
import type { Path, TransferTaxes } from "./Path.js"
import { execute, type Plan } from "./Plan.js"
import { better, planOf, type RouteRequest } from "./RouteSearch.js"
import { equaliseMarginals } from "./Split.js"
import { objective } from "./SplitObjective.js"
import { bestSubsets } from "./SubsetSearch.js"

/** Subsets optimised exactly after the grid search. */
const REFINED = 3

export const bestSplit = (request: RouteRequest, paths: ReadonlyArray<Path>, taxes: TransferTaxes): Plan | null => {
  const common = { market: request.market, side: request.side, total: request.amount, taxes }
  const choices = bestSubsets({
    ...common,
    paths,
    maxSplits: request.maxSplits,
    gas: paths.map((path) => gasInToken(request.gas, pathGasUnits(request.gas, path))),
    keep: REFINED
  })
  let best: Plan | null = null
  for (const choice of choices) {
    if (choice.members.length < 2) continue
    const members = choice.members.map((i) => paths[i]!)
    const problem = { ...common, paths: members, maxSplits: members.length }
    const f = objective(problem)
    // The grid values shared pools as if alone: an allocation that cannot fill is left to the others.
    if (f.value(choice.amounts) === null) continue
    const outcome = equaliseMarginals(problem, choice.amounts, f)
    best = better(best, planOf(request, execute(request.market, members, outcome.amounts, request.side, taxes)))
  }
  return best
}

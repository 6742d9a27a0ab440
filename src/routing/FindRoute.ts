/**
 * Route search over the in-memory index: the candidate paths of a pair, each priced alone for the whole
 * order, and the best plan: the best single path, or the best split over any of them when its output
 * net of the extra gas is higher. Pure: one market snapshot in, plans out; nothing reads the chain.
 *
 * An exactIn path that cannot enter the best plan (./Prune.ts: its rate at zero input is below a direct
 * path's marginal at the whole order) is not priced; it stays a candidate, marked `Dominated`.
 *
 * Guarantees (each tested in test/routing/): the plan's net value is never below the best single path's
 * (that path is always a contender), a split is kept only when it pays for its extra gas (every split
 * size is compared net of gas, down to one path), and the plan is within 0.01 bp of the best over every
 * subset of at most `maxSplits` paths.
 */
import { candidatePaths } from "./Candidates.js"
import { pathGasUnits } from "./Gas.js"
import { type HopSimulation, noTaxes, type Path, runPath, type SimulatedHops } from "./Path.js"
import type { Plan } from "./Plan.js"
import { dominated } from "./Prune.js"
import {
  better,
  type Candidate,
  type Dominated,
  type RouteRequest,
  type RouteResult,
  singlePathPlan
} from "./RouteSearch.js"
import { bestSplit } from "./SplitPlan.js"

export { type Candidate, netValue, type RouteRequest, type RouteResult } from "./RouteSearch.js"

const DOMINATED: Dominated = { _tag: "Dominated", reason: "dominated" }

export const findRoute = (request: RouteRequest): RouteResult => {
  const taxes = request.taxes ?? noTaxes
  const paths = candidatePaths(request.market, request.tokenIn, request.tokenOut, {
    maxHops: request.maxHops,
    hubs: request.hubs,
    allowVenue: request.allowVenue
  })
  const priced = (path: Path) => runPath(path, request.side, request.amount, request.market.pool, taxes)
  const direct = paths.map((path) => (path.hops.length === 1 ? priced(path) : undefined))
  const drop = dominated(request, paths, (i) => direct[i] ?? priced(paths[i]!), taxes)
  const candidates: Array<Candidate> = paths.map((path, i) => ({
    path,
    run: drop[i] ? DOMINATED : direct[i] ?? priced(path),
    gasUnits: pathGasUnits(request.gas, path)
  }))
  let bestSingle: Plan | null = null
  for (const { path, run } of candidates) {
    if (run._tag === "Filled") bestSingle = better(bestSingle, singlePathPlan(request, path, run))
  }
  let best = bestSingle
  if (request.maxSplits > 1) {
    const splittable = candidates.flatMap((c) =>
      c.run._tag !== "NeedsSimulation" && c.run._tag !== "Dominated" ? [c.path] : []
    )
    if (splittable.length > 1) best = better(best, bestSplit(request, splittable, taxes))
  }
  return { candidates, best, bestSingle }
}

/** The hop swaps the result's unpriced paths wait on, one per path, that a simulation can price. */
export const pendingSimulations = (result: RouteResult): ReadonlyArray<HopSimulation> =>
  result.candidates.flatMap((candidate) =>
    candidate.run._tag === "NeedsSimulation" && candidate.run.reason !== "fee_on_transfer_input"
      ? [candidate.run.pending]
      : []
  )

/**
 * `result` again with the hops `simulated` prices: the paths that needed a simulation are priced alone
 * and compete with the best plan as single paths. They are never split: what a hooked pool's state is
 * after a swap is not known, so a second flow through it could not be priced.
 */
export const withSimulatedHops = (
  request: RouteRequest,
  result: RouteResult,
  simulated: SimulatedHops
): RouteResult => {
  const taxes = request.taxes ?? noTaxes
  let { best, bestSingle } = result
  const candidates = result.candidates.map((candidate): Candidate => {
    if (candidate.run._tag !== "NeedsSimulation") return candidate
    const run = runPath(candidate.path, request.side, request.amount, request.market.pool, taxes, simulated)
    if (run._tag === "Filled") {
      const alone = singlePathPlan(request, candidate.path, run)
      bestSingle = better(bestSingle, alone)
      best = better(best, alone)
    }
    return { ...candidate, run }
  })
  return { candidates, best, bestSingle }
}

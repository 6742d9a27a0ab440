/**
 * Route search over the in-memory index: the candidate paths of a pair, each priced alone for the whole
 * order, and the best plan: the best single path, or a split over the most promising paths when its
 * output net of the extra gas is higher. Pure: one market snapshot in, plans out; nothing reads the chain.
 *
 * Guarantees (each tested in test/routing/): the plan's net value is never below the best single path's
 * (that path is always a contender), a split is kept only when it pays for its extra gas (every split
 * size is compared net of gas, down to one path), and the split is within 1 bp of the optimum.
 */
import type { Hex } from "../../schema/Chain.js"
import { candidatePaths } from "./Candidates.js"
import { gasInToken, type GasModel, gasUsdcRaw, pathGasUnits } from "./Gas.js"
import type { Market } from "./Market.js"
import {
  type HopSimulation,
  noTaxes,
  type Path,
  type PathRun,
  runPath,
  type Side,
  type SimulatedHops,
  type TransferTaxes
} from "./Path.js"
import { execute, type Execution, type Plan } from "./Plan.js"
import { equaliseMarginals, optimiseSplit, type SplitProblem } from "./Split.js"

export interface RouteRequest {
  readonly market: Market
  readonly tokenIn: Hex
  readonly tokenOut: Hex
  readonly side: Side
  /** Input (exactIn) or output (exactOut), in base units. */
  readonly amount: bigint
  readonly hubs: ReadonlyArray<Hex>
  readonly maxHops: number
  readonly maxSplits: number
  readonly allowVenue: (venue: string) => boolean
  readonly gas: GasModel
  readonly taxes?: TransferTaxes
  /** Paths handed to the optimiser (default 8): the best alone at the full size and at a part of it. */
  readonly splitCandidates?: number
}

export interface Candidate {
  readonly path: Path
  /** The path alone for the whole order: priced, or why it cannot be (simulation needed, cannot fill). */
  readonly run: PathRun
  readonly gasUnits: bigint
}

export interface RouteResult {
  readonly candidates: ReadonlyArray<Candidate>
  /** Null when no exactly priced path (or split) fills the order. */
  readonly best: Plan | null
  readonly bestSingle: Plan | null
}

/** Higher is better: output net of gas (exactIn), or minus input and gas (exactOut). */
export const netValue = (plan: Plan): bigint =>
  plan.side === "exactIn" ? plan.amountOut - plan.gasInToken : -(plan.amountIn + plan.gasInToken)

const makePlan = (request: RouteRequest, paths: ReadonlyArray<Path>, amounts: ReadonlyArray<bigint>): Plan | null =>
  planOf(request, execute(request.market, paths, amounts, request.side, request.taxes ?? noTaxes))

const planOf = (request: RouteRequest, run: Execution): Plan | null => {
  if (run._tag !== "Filled" || run.legs.length === 0) return null
  const gasUnits = run.legs.reduce((sum, leg) => sum + pathGasUnits(request.gas, leg.path), 0n)
  return {
    side: request.side,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: run.amountIn,
    amountOut: run.amountOut,
    legs: run.legs,
    gasUnits,
    gasUsdcRaw: gasUsdcRaw(request.gas, gasUnits),
    gasInToken: gasInToken(request.gas, gasUnits)
  }
}

const better = (a: Plan | null, b: Plan | null): Plan | null =>
  a === null ? b : b === null ? a : netValue(b) > netValue(a) ? b : a

/** The paths most worth splitting over: best alone at the full size, then best for a part of it. */
const shortlist = (request: RouteRequest, priced: ReadonlyArray<Candidate>): ReadonlyArray<Path> => {
  const limit = request.splitCandidates ?? 8
  const taxes = request.taxes ?? noTaxes
  const part = request.amount / BigInt(Math.max(2, request.maxSplits))
  const score = (run: PathRun) =>
    run._tag !== "Filled" ? null : request.side === "exactIn" ? run.amountOut : -run.amountIn
  const rank = (runs: ReadonlyArray<readonly [Path, bigint | null]>) =>
    runs.filter((entry): entry is readonly [Path, bigint] => entry[1] !== null)
      .sort((a, b) => (a[1] === b[1] ? 0 : a[1] > b[1] ? -1 : 1))
      .map(([path]) => path)
  const atFull = rank(priced.map((c) => [c.path, score(c.run)] as const))
  const atPart = part > 0n
    ? rank(priced.map((c) => [c.path, score(runPath(c.path, request.side, part, request.market.pool, taxes))] as const))
    : []
  const chosen: Array<Path> = []
  for (let i = 0; chosen.length < limit && (i < atFull.length || i < atPart.length); i++) {
    for (const path of [atFull[i], atPart[i]]) {
      if (path !== undefined && chosen.length < limit && !chosen.includes(path)) chosen.push(path)
    }
  }
  return chosen
}

export const findRoute = (request: RouteRequest): RouteResult => {
  const taxes = request.taxes ?? noTaxes
  const paths = candidatePaths(request.market, request.tokenIn, request.tokenOut, {
    maxHops: request.maxHops,
    hubs: request.hubs,
    allowVenue: request.allowVenue
  })
  const candidates: Array<Candidate> = paths.map((path) => ({
    path,
    run: runPath(path, request.side, request.amount, request.market.pool, taxes),
    gasUnits: pathGasUnits(request.gas, path)
  }))
  let bestSingle: Plan | null = null
  for (const { path, run } of candidates) {
    if (run._tag !== "Filled") continue
    const leg = { path, amountIn: run.amountIn, amountOut: run.amountOut, fills: run.fills }
    const alone: Execution = { _tag: "Filled", legs: [leg], amountIn: run.amountIn, amountOut: run.amountOut }
    bestSingle = better(bestSingle, planOf(request, alone))
  }
  let best = bestSingle
  if (request.maxSplits > 1) {
    const splittable = candidates.filter((c) => c.run._tag !== "NeedsSimulation")
    const shortlisted = shortlist(request, splittable)
    if (shortlisted.length > 1) best = better(best, bestSplit(request, shortlisted, taxes))
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
      const leg = { path: candidate.path, amountIn: run.amountIn, amountOut: run.amountOut, fills: run.fills }
      const alone = planOf(request, { _tag: "Filled", legs: [leg], amountIn: run.amountIn, amountOut: run.amountOut })
      bestSingle = better(bestSingle, alone)
      best = better(best, alone)
    }
    return { ...candidate, run }
  })
  return { candidates, best, bestSingle }
}

/**
 * The optimum for at most `maxSplits` paths, then for one path fewer (the least used dropped, its flow
 * re-balanced), down to two: gas grows with every path, so the best net plan can use fewer.
 */
const bestSplit = (request: RouteRequest, paths: ReadonlyArray<Path>, taxes: TransferTaxes): Plan | null => {
  const problem: SplitProblem = {
    market: request.market,
    paths,
    side: request.side,
    total: request.amount,
    maxSplits: request.maxSplits,
    taxes
  }
  let outcome = optimiseSplit(problem)
  let best: Plan | null = null
  while (outcome !== null) {
    const used = outcome.amounts.flatMap((amount, i) => (amount > 0n ? [i] : []))
    if (used.length < 2) break
    best = better(best, makePlan(request, paths, outcome.amounts))
    const smallest = used.reduce((a, b) => (outcome!.amounts[b]! < outcome!.amounts[a]! ? b : a))
    const largest = used.reduce((a, b) => (outcome!.amounts[b]! > outcome!.amounts[a]! ? b : a))
    const start = outcome.amounts.map((amount, i) =>
      i === smallest ? 0n : i === largest ? amount + outcome!.amounts[smallest]! : amount
    )
    // Without a gas cost a path fewer can only do worse.
    if (gasInToken(request.gas, pathGasUnits(request.gas, paths[smallest]!)) === 0n) break
    const restricted = { ...problem, maxSplits: used.length - 1 }
    outcome = execute(request.market, paths, start, request.side, taxes)._tag === "Filled"
      ? equaliseMarginals(restricted, start)
      : null
  }
  return best
}

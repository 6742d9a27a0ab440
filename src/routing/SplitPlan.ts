/**
 * The best split of an order: which candidate paths are worth splitting over, and how many of them to
 * use. The optimiser (./Split.ts) finds the flows for at most `maxSplits` paths; gas grows with every
 * path, so one path fewer at a time is tried too, and the best plan net of gas is kept.
 */
import { gasInToken, pathGasUnits } from "./Gas.js"
import { noTaxes, type Path, type PathRun, runPath, type TransferTaxes } from "./Path.js"
import { execute, type Plan } from "./Plan.js"
import { better, type Candidate, planOf, type RouteRequest } from "./RouteSearch.js"
import { equaliseMarginals, optimiseSplit } from "./Split.js"
import { objective, type SplitProblem } from "./SplitObjective.js"

/** The paths most worth splitting over: best alone at the full size, then best for a part of it. */
export const shortlist = (request: RouteRequest, priced: ReadonlyArray<Candidate>): ReadonlyArray<Path> => {
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

/**
 * The optimum for at most `maxSplits` paths, then for one path fewer (the least used dropped, its flow
 * re-balanced), down to two: gas grows with every path, so the best net plan can use fewer.
 */
export const bestSplit = (request: RouteRequest, paths: ReadonlyArray<Path>, taxes: TransferTaxes): Plan | null => {
  const problem: SplitProblem = {
    market: request.market,
    paths,
    side: request.side,
    total: request.amount,
    maxSplits: request.maxSplits,
    taxes
  }
  // Every restriction prices allocations of the same paths: one memo serves them all.
  const f = objective(problem)
  let outcome = optimiseSplit(problem, f)
  let best: Plan | null = null
  while (outcome !== null) {
    const used = outcome.amounts.flatMap((amount, i) => (amount > 0n ? [i] : []))
    if (used.length < 2) break
    best = better(best, planOf(request, execute(request.market, paths, outcome.amounts, request.side, taxes)))
    const smallest = used.reduce((a, b) => (outcome!.amounts[b]! < outcome!.amounts[a]! ? b : a))
    const largest = used.reduce((a, b) => (outcome!.amounts[b]! > outcome!.amounts[a]! ? b : a))
    const start = outcome.amounts.map((amount, i) =>
      i === smallest ? 0n : i === largest ? amount + outcome!.amounts[smallest]! : amount
    )
    // Without a gas cost a path fewer can only do worse.
    if (gasInToken(request.gas, pathGasUnits(request.gas, paths[smallest]!)) === 0n) break
    const restricted = { ...problem, maxSplits: used.length - 1 }
    outcome = f.value(start) === null ? null : equaliseMarginals(restricted, start, f)
  }
  return best
}

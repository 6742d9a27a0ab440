/**
 * Splitting one order across paths: maximise the total output (exactIn) or minimise the total input
 * (exactOut) over allocations that sum to the order, each path's amount priced exactly.
 *
 * The objective is concave in the allocation (each pool's output is concave in its input; composing
 * and summing keeps it so), and paths that share a pool are priced together, one after another on one
 * pool state, so the shared curve is spent once. Two phases:
 * 1. water-filling: the order in `chunks` equal parts, each to the path whose next part pays most at
 *    the pool state the earlier parts left (a shared pool's later parts see the combined flow), which
 *    lands every path within about one part of its optimal amount;
 * 2. marginal equalisation, exactly: repeatedly move flow from the path whose last unit pays least to
 *    the one whose next unit pays most, by the exact amount a golden-section line search finds, until
 *    no move of one resolution step (2⁻¹⁶ of the order) gains. At a concave optimum all used paths'
 *    marginals are equal; `gapEstimate` is the Frank–Wolfe duality gap from the last marginals.
 */
import { lineMaximum } from "./LineSearch.js"
import { type PathRun, runPath } from "./Path.js"
import { overlay } from "./Plan.js"
import { objective, poolIds, type SplitProblem, valueOf } from "./SplitObjective.js"

export interface SplitOutcome {
  /** Per path of the problem, the amount it carries (0 for unused paths). */
  readonly amounts: ReadonlyArray<bigint>
  /** Output (exactIn) or minus the input (exactOut): higher is better. */
  readonly value: bigint
  /** Upper estimate of how far `value` is from the optimum, in the same units. */
  readonly gapEstimate: bigint
  /** Exact evaluations of path groups (a measure of the work done). */
  readonly evaluations: number
}

/** Phase 1. Null when no path can take even one part. */
export const waterFill = (problem: SplitProblem): Array<bigint> | null => {
  const { paths, side, total, taxes } = problem
  const wanted = BigInt(Math.max(1, problem.chunks ?? 32))
  const chunks = wanted > total ? total : wanted
  const part = total / chunks
  const pools = overlay(problem.market)
  const amounts = paths.map(() => 0n)
  const ids = paths.map(poolIds)
  const sharing = ids.map((a) => ids.map((b) => [...a].some((id) => b.has(id))))
  let runs: Array<PathRun | undefined> = paths.map(() => undefined)
  const active = new Set<number>()
  for (let k = 0n; k < chunks; k++) {
    // The first part carries the remainder; every later part has the same size.
    const size = k === 0n ? part + (total % chunks) : part
    if (k === 1n) runs = paths.map(() => undefined)
    const eligible = active.size >= problem.maxSplits ? [...active] : paths.map((_, i) => i)
    let best = -1
    let bestValue = 0n
    for (const i of eligible) {
      const run = (runs[i] ??= runPath(paths[i]!, side, size, pools.lookup, taxes))
      if (run._tag !== "Filled") continue
      const value = valueOf(side, run)
      if (best < 0 || value > bestValue) [best, bestValue] = [i, value]
    }
    if (best < 0) return null
    const chosen = runs[best]!
    if (chosen._tag === "Filled") pools.apply(chosen.poolsAfter)
    amounts[best] = amounts[best]! + size
    active.add(best)
    for (let j = 0; j < paths.length; j++) if (sharing[j]![best]) runs[j] = undefined
  }
  return amounts
}

/** Phase 2, from `start` (a feasible allocation summing to the order). */
export const equaliseMarginals = (
  problem: SplitProblem,
  start: ReadonlyArray<bigint>,
  f = objective(problem)
): SplitOutcome => {
  const { total } = problem
  const step = total >> 16n > 0n ? total >> 16n : 1n
  const nearby = (total * 3n) / 32n
  const amounts = [...start]
  let current = f.value(amounts)
  if (current === null) throw new Error("equaliseMarginals: the starting allocation does not fill")
  // Every trial allocation is written into one array and put back after pricing: the objective reads it
  // only during the call, and the line search tries some twenty per round.
  const trial = [...amounts]
  const valueMoving = (t: bigint, to: number, from = -1) => {
    trial[to] = amounts[to]! + t
    if (from >= 0) trial[from] = amounts[from]! - t
    const value = f.value(trial)
    trial[to] = amounts[to]!
    if (from >= 0) trial[from] = amounts[from]!
    return value
  }
  let gapEstimate = 0n
  for (let round = 0; round < 60; round++) {
    const active = amounts.flatMap((x, i) => (x > 0n ? [i] : []))
    const eligible = active.length >= problem.maxSplits ? active : amounts.map((_, i) => i)
    const gains = new Map<number, bigint>()
    for (const i of eligible) {
      const value = valueMoving(step, i)
      if (value !== null) gains.set(i, value - current)
    }
    let receiver = -1
    for (const [i, gain] of gains) if (receiver < 0 || gain > gains.get(receiver)!) receiver = i
    if (receiver < 0) break
    const bestGain = gains.get(receiver)!
    gapEstimate = active.reduce((sum, i) => sum + (amounts[i]! * (bestGain - (gains.get(i) ?? bestGain))) / step, 0n)
    let donor = -1
    let donorLoss = 0n
    for (const i of active) {
      if (i === receiver || amounts[i]! < step) continue
      const value = valueMoving(-step, i)
      if (value === null) continue
      const loss = current - value
      if (donor < 0 || loss < donorLoss) [donor, donorLoss] = [i, loss]
    }
    if (donor < 0 || bestGain <= donorLoss) break
    const from = donor
    const phi = (t: bigint) => valueMoving(t, receiver, from)
    // Water-filling left every amount within about a part of the optimum: search near first.
    const near = amounts[from]! < nearby ? amounts[from]! : nearby
    let line = lineMaximum(phi, near, step)
    if (line.t + step >= near && near < amounts[from]!) line = lineMaximum(phi, amounts[from]!, step)
    if (line.value === null || line.value <= current) break
    amounts[receiver] = trial[receiver] = amounts[receiver]! + line.t
    amounts[from] = trial[from] = amounts[from]! - line.t
    current = line.value
  }
  return { amounts, value: current, gapEstimate, evaluations: f.evaluations() }
}

/** Both phases; null when the paths together cannot fill the order. */
export const optimiseSplit = (problem: SplitProblem, f = objective(problem)): SplitOutcome | null => {
  const start = waterFill(problem)
  if (start === null) return null
  // Parts priced one after another can total a little more than one swap of their sum pays.
  if (f.value(start) === null) return null
  return equaliseMarginals(problem, start, f)
}

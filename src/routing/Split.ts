/**
 * Exact amounts for a split over chosen paths: maximise the total output (exactIn) or minimise the total
 * input (exactOut) over allocations that sum to the order, each path's amount priced exactly, from a
 * feasible start (./SplitPlan.ts passes the allocation ./SubsetSearch.ts found on its lines).
 *
 * The objective is concave in the allocation (each pool's output is concave in its input; composing
 * and summing keeps it so), and paths that share a pool are priced together, one after another on one
 * pool state, so the shared curve is spent once. Marginal equalisation, exactly: repeatedly move flow
 * from the path whose last unit pays least to the one whose next unit pays most, by the exact amount a
 * golden-section line search finds, until no move of one resolution step (2⁻¹⁶ of the order) gains. At
 * a concave optimum all used paths' marginals are equal; `gapEstimate` is the Frank–Wolfe duality gap
 * from the last marginals.
 */
import { lineMaximum } from "./LineSearch.js"
import { objective, type SplitProblem } from "./SplitObjective.js"

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

/** From `start`, a feasible allocation summing to the order. */
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
    // The start is near the optimum (the lines are within a segment of it): search near first.
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

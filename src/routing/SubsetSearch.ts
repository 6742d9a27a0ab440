/**
 * Which paths a split uses: the best subsets of at most `maxSplits` candidate paths, found by branch and
 * bound over every subset, not by cutting the candidates to a shortlist first (a shallow pool that prices
 * best for a part of the order looks poor alone at the full size, and a cut made apart from the split's
 * objective drops it).
 *
 * On a grid of `chunks` equal parts of the order, each path's value alone at m parts, Fᵢ(m), is priced
 * lazily and remembered. For a subset, the best grid allocation is greedy by next part (exact for concave
 * values); its value is net of each used path's gas. The bound is Lagrangian: for any price λ of a part,
 * a subset's value is at most λ·chunks + Σᵢ ψᵢ(λ), ψᵢ(λ) = maxₘ (Fᵢ(m) − λm) − gasᵢ, since its parts sum
 * to the order. λ is the marginal of a first good subset (the paths the unconstrained grid optimum uses
 * most), so the bound is tight near the optimum; subsets (and every extension of them) whose bound cannot
 * beat the `keep`-th best found are never priced. Paths sharing a pool are valued alone here, which can
 * only overstate them; the caller prices the survivors exactly, shared pools spent once.
 */
import { type Path, runPath } from "./Path.js"
import { type SplitProblem, valueOf } from "./SplitObjective.js"

export interface SubsetChoice {
  /** Indices into the problem's paths. */
  readonly members: ReadonlyArray<number>
  /** The grid allocation, per member. */
  readonly amounts: ReadonlyArray<bigint>
  /** Grid value net of the used paths' gas. */
  readonly value: bigint
}

export interface SubsetSearch extends SplitProblem {
  /** Gas of each path in the objective's token. */
  readonly gas: ReadonlyArray<bigint>
  /** How many of the best subsets to return. */
  readonly keep: number
}

/** Past this many subsets priced the search stops with what it has (a guard; bounds end it far sooner). */
const MAX_PRICED = 2_000

export const bestSubsets = (search: SubsetSearch): ReadonlyArray<SubsetChoice> => {
  const { paths, side, total, taxes, market, gas, maxSplits: k } = search
  const chunks = BigInt(search.chunks ?? 32) > total ? Number(total) : search.chunks ?? 32
  const values = paths.map((): Array<bigint | null | undefined> => [0n])
  const F = (i: number, m: number): bigint | null => {
    const known = values[i]![m]
    if (known !== undefined) return known
    // Past a size a path cannot fill, no larger size fills either.
    const value = m > 1 && F(i, m - 1) === null ? null : price(paths[i]!, (total * BigInt(m)) / BigInt(chunks))
    values[i]![m] = value
    return value
  }
  const price = (path: Path, amount: bigint) => {
    const run = runPath(path, side, amount, market.pool, taxes)
    return run._tag === "Filled" ? valueOf(side, run) : null
  }
  const gain = (i: number, m: number): bigint | null => {
    if (m >= chunks) return null
    const [here, there] = [F(i, m), F(i, m + 1)]
    return here === null || there === null ? null : there - here
  }
  /** The subset's best grid allocation (greedy by next part), its net value and its last part's gain. */
  const allocate = (members: ReadonlyArray<number>) => {
    const parts = members.map(() => 0)
    let marginal = 0n
    for (let c = 0; c < chunks; c++) {
      let best = -1
      let bestGain = 0n
      members.forEach((i, at) => {
        const g = gain(i, parts[at]!)
        if (g !== null && (best < 0 || g > bestGain)) [best, bestGain] = [at, g]
      })
      if (best < 0) return null
      parts[best]!++
      marginal = bestGain
    }
    const value = members.reduce((sum, i, at) => (parts[at]! > 0 ? sum + F(i, parts[at]!)! - gas[i]! : sum), 0n)
    return { parts, value, marginal }
  }
  const all = allocate(paths.map((_, i) => i))
  if (all === null) return []
  // A first subset: the paths the unconstrained grid optimum gives most; its marginal prices the bound.
  const first = paths.map((_, i) => i).sort((a, b) => all.parts[b]! - all.parts[a]!).slice(0, k)
  const start = allocate(first)
  const lambda = start?.marginal ?? all.marginal
  const psi = paths.map((_, i) => {
    let m = 0
    for (let g = gain(i, 0); g !== null && g > lambda; g = gain(i, ++m));
    const surplus = F(i, m)! - lambda * BigInt(m) - gas[i]!
    return surplus > 0n ? surplus : 0n
  })
  const order = paths.map((_, i) => i).sort((a, b) => (psi[b]! > psi[a]! ? 1 : psi[b]! < psi[a]! ? -1 : 0))
  const base = lambda * BigInt(chunks)
  const found: Array<SubsetChoice> = []
  let priced = 0
  const threshold = () => {
    if (found.length < search.keep) return null
    const worst = found[found.length - 1]!.value
    // Subsets within 10⁻⁸ of the worst kept cannot change the answer by a measurable amount.
    return worst + (worst < 0n ? -worst : worst) / 100_000_000n
  }
  const record = (members: ReadonlyArray<number>) => {
    priced++
    const grid = allocate(members)
    if (grid === null) return
    found.push({ members, amounts: grid.parts.map((m) => (total * BigInt(m)) / BigInt(chunks)), value: grid.value })
    found.sort((a, b) => (b.value > a.value ? 1 : b.value < a.value ? -1 : 0))
    if (found.length > search.keep) found.pop()
  }
  const visit = (from: number, chosen: ReadonlyArray<number>, bound: bigint) => {
    const bar = threshold()
    if (chosen.length > 0 && (bar === null || bound > bar)) record(chosen)
    for (let j = from; j < order.length && chosen.length < k && priced < MAX_PRICED; j++) {
      let optimistic = bound
      for (let t = j; t < Math.min(order.length, j + k - chosen.length); t++) optimistic += psi[order[t]!]!
      const now = threshold()
      if (now !== null && optimistic <= now) break
      visit(j + 1, [...chosen, order[j]!], bound + psi[order[j]!]!)
    }
  }
  visit(0, [], base)
  // The allocation amounts sum to the order: the grid's rounding goes to the largest.
  return found.map((choice) => {
    const amounts = [...choice.amounts]
    const largest = amounts.indexOf(amounts.reduce((a, b) => (b > a ? b : a)))
    amounts[largest] = amounts[largest]! + total - amounts.reduce((a, b) => a + b, 0n)
    return { ...choice, amounts }
  })
}

/**
 * Which paths a split uses: the best subsets of at most `maxSplits` candidate paths, found by branch and
 * bound over every subset, not by cutting the candidates to a shortlist first (a shallow pool that prices
 * best for a part of the order looks poor alone at the full size, and a cut made apart from the split's
 * objective drops it).
 *
 * Each path's value alone, fᵢ, is priced lazily (and remembered) at fixed points of the order: fine near
 * zero (1/1024, 1/128) so that a path worth a sliver of the order shows its price, then every 1/`chunks`.
 * Between points fᵢ is taken as linear, which, fᵢ being concave, understates it. A subset's best
 * allocation on those lines takes segments in falling order of slope until the order is filled, the last
 * one in part (exact for concave piecewise-linear values); its value is net of each used path's gas.
 * The bound is Lagrangian: for any slope λ, a subset's value is at most λ·T + Σᵢ ψᵢ(λ), with
 * ψᵢ(λ) = maxₓ (fᵢ(x) − λx) − gasᵢ, since its amounts sum to the order T. λ is the last slope of a first
 * good subset (the paths the unconstrained optimum gives most), so the bound is tight near the optimum;
 * subsets, and every extension of them, whose bound cannot beat the `keep`-th best found are not priced.
 * A subset whose paths share a pool is valued, once allocated on the lines, by pricing those paths
 * together at that allocation, each shared pool spent once: on the lines alone it would be overstated
 * and could crowd better subsets out. Its bound still takes each path alone, which overstates it where
 * the paths cross the shared pool the same way (always within two hops). The caller prices the
 * survivors exactly.
 *
 * The lines rank subsets only to within their error, which is largest where a concentrated position's
 * range end lies between two points: a subset can then be best exactly yet rank below `keep` others on
 * the lines. So the search also keeps the `keepByBound` subsets whose bound on their exact optimum is
 * highest, each path's ψ taken on the curve that concavity allows between the points (`lift`) as well as
 * on the lines: a branch is cut only when neither its value on the lines nor its bound can enter a list.
 */
import type { Hex } from "../../schema/Chain.js"
import { runPath } from "./Path.js"
import { execute } from "./Plan.js"
import { poolIds, type SplitProblem, valueOf } from "./SplitObjective.js"

export interface SubsetChoice {
  /** Indices into the problem's paths. */
  readonly members: ReadonlyArray<number>
  /** The allocation on the lines, per member, summing to the order. */
  readonly amounts: ReadonlyArray<bigint>
  /** Its value on the lines (members sharing a pool priced together), net of the used paths' gas. */
  readonly value: bigint
  /**
   * An upper bound on its exact optimum, for paths that share no pool: λ·T + Σᵢ supₓ (fᵢ(x) − λx) − gas,
   * each sup bounded on every segment by concavity (fᵢ rises no faster than the segment before, and falls
   * no slower than the one after), λ its last slope, or the search's λ where that gives less. The lines are exact at their points only; near a
   * position's range end (a kink) the bound is what tells that the exact optimum may be well above them.
   */
  readonly bound: number
}

export interface SubsetSearch extends SplitProblem {
  /** Gas of each path in the objective's token. */
  readonly gas: ReadonlyArray<bigint>
  /** How many of the best subsets on the lines to return. */
  readonly keep: number
  /** And how many of those with the highest bound on their exact optimum, if not among them. */
  readonly keepByBound: number
}

/** Past this many subsets priced the search stops with what it has (a guard; bounds end it far sooner). */
const MAX_PRICED = 2_000

/** 0, T/1024, T/128, then every T/chunks up to T, without repeats. */
const pointsOf = (total: bigint, chunks: number): Array<bigint> => {
  const points = [0n, total / 1024n, total / 128n]
  for (let m = 1; m <= chunks; m++) points.push((total * BigInt(m)) / BigInt(chunks))
  return points.filter((x, i) => i === 0 || x > points[i - 1]!)
}

const byValue = (
  a: { readonly value: bigint },
  b: { readonly value: bigint }
) => (b.value > a.value ? 1 : b.value < a.value ? -1 : 0)

export const bestSubsets = (search: SubsetSearch): ReadonlyArray<SubsetChoice> => {
  const { paths, side, total, taxes, market, gas, maxSplits: k } = search
  const points = pointsOf(total, search.chunks ?? 32)
  const last = points.length - 1
  const widths = points.slice(1).map((x, j) => x - points[j]!)
  // The same as numbers, converted once: the bounds and the slopes read them thousands of times.
  const [pointsN, widthsN, totalN] = [points.map(Number), widths.map(Number), Number(total)]
  const values = paths.map((): Array<bigint | null | undefined> => [0n])
  const F = (i: number, j: number): bigint | null => {
    const known = values[i]![j]
    if (known !== undefined) return known
    // Past a size a path cannot fill, no larger size fills either.
    let value: bigint | null = null
    if (j === 1 || F(i, j - 1) !== null) {
      const run = runPath(paths[i]!, side, points[j]!, market.pool, taxes)
      value = run._tag === "Filled" ? valueOf(side, run) : null
    }
    values[i]![j] = value
    return value
  }
  const slopes = paths.map((): Array<number | null | undefined> => [])
  /** Value per unit of segment j of path i; null past the last point or what the path can fill. */
  const slope = (i: number, j: number): number | null => {
    const known = slopes[i]![j]
    if (known !== undefined) return known
    const [here, there] = j >= last ? [null, null] : [F(i, j), F(i, j + 1)]
    const value = here === null || there === null ? null : Number(there - here) / widthsN[j]!
    slopes[i]![j] = value
    return value
  }
  /** supₓ (fᵢ(x) − λx) bounded by concavity on each segment up to the one after the slope falls below λ. */
  const supBound = (i: number, lambda: number) => {
    let sup = 0
    for (let j = 0; j < last; j++) {
      const s = slope(i, j)
      if (s === null) break
      const [a, b] = [pointsN[j]!, pointsN[j + 1]!]
      const before = j === 0 ? Infinity : slope(i, j - 1)!
      const after = slope(i, j + 1) ?? -Infinity
      const fromLeft = Number(F(i, j)!) - lambda * a + (b - a) * Math.max(0, before - lambda)
      const fromRight = Number(F(i, j + 1)!) - lambda * b + (b - a) * Math.max(0, lambda - after)
      sup = Math.max(sup, Math.min(fromLeft, fromRight))
      if (s <= lambda) break
    }
    return sup
  }
  /**
   * The subset's best allocation on the lines, its net value and the slope of its last segment. Its
   * bound (./SplitPlan.ts reads it) is left to the subsets kept: pricing it costs each member a point.
   *
   * Segments are taken highest slope first, the earlier member first on a tie, from a heap (the first
   * allocation runs over every candidate). While the order is far from filled the fill is counted in
   * floating point; the last segments are counted in bigint, so the amounts sum to the order exactly.
   */
  const allocate = (members: ReadonlyArray<number>) => {
    const at = members.map(() => 0)
    const next = new Float64Array(members.length)
    const heap: Array<number> = []
    const above = (a: number, b: number) => next[a]! > next[b]! || (next[a] === next[b] && a < b)
    const swap = (x: number, y: number) => ([heap[x], heap[y]] = [heap[y]!, heap[x]!])
    const lift = (from: number) => {
      for (let c = from; c > 0 && above(heap[c]!, heap[(c - 1) >> 1]!); c = (c - 1) >> 1) swap(c, (c - 1) >> 1)
    }
    const sink = () => {
      for (let c = 0;;) {
        const [l, r] = [2 * c + 1, 2 * c + 2]
        const top = r < heap.length && above(heap[r]!, heap[l]!) ? r : l
        if (top >= heap.length || !above(heap[top]!, heap[c]!)) return
        swap(c, top)
        c = top
      }
    }
    /** Member n back in the heap at its next segment's slope, or out of it when it has none. */
    const requeue = (n: number) => {
      const s = slope(members[n]!, at[n]!)
      if (s === null) {
        heap[0] = heap[heap.length - 1]!
        heap.pop()
      } else next[n] = s
      sink()
    }
    members.forEach((i, n) => {
      const s = slope(i, 0)
      if (s === null) return
      next[n] = s
      heap.push(n)
      lift(heap.length - 1)
    })
    let filled = 0
    let left: bigint | undefined
    let partial = { member: -1, amount: 0n, value: 0n }
    let marginal = 0
    for (;;) {
      const n = heap[0]
      if (n === undefined) return null
      const j = at[n]!
      marginal = next[n]!
      if (left === undefined && filled + (pointsN[j + 1]! - pointsN[j]!) < totalN * (1 - 1e-9)) {
        filled += pointsN[j + 1]! - pointsN[j]!
      } else {
        left ??= members.reduce((rest, _, m) => rest - points[at[m]!]!, total)
        if (widths[j]! > left) {
          partial = {
            member: n,
            amount: left,
            value: ((F(members[n]!, j + 1)! - F(members[n]!, j)!) * left) / widths[j]!
          }
          break
        }
        left -= widths[j]!
      }
      at[n]!++
      if (left === 0n) break
      requeue(n)
    }
    const extra = (n: number) => (n === partial.member ? partial : { amount: 0n, value: 0n })
    const amounts = members.map((_, n) => points[at[n]!]! + extra(n).amount)
    const worth = members.map((i, n) => (amounts[n]! > 0n ? F(i, at[n]!)! + extra(n).value - gas[i]! : 0n))
    return { members, amounts, worth, value: worth.reduce((sum, x) => sum + x, 0n), marginal }
  }
  const pools = paths.map((): ReadonlySet<Hex> | undefined => undefined)
  const poolsOf = (i: number) => (pools[i] ??= poolIds(paths[i]!))
  const share = (i: number, j: number) => paths[i]!.hops.some((hop) => poolsOf(j).has(hop.poolId))
  /**
   * The lines value paths that share a pool as if each had it alone, which overstates them (the second
   * prices against what the first left): kept at that value, such subsets crowd out of the `keep` best,
   * and their threshold prunes, subsets that are really better. Their members are re-priced together,
   * one after another on one pool state, at the allocation on the lines: a value the subset does reach.
   */
  const joint = (lines: NonNullable<ReturnType<typeof allocate>>) => {
    const { amounts, members, worth } = lines
    const linked = members.flatMap((i, n) =>
      amounts[n]! > 0n && members.some((j, m) => m !== n && amounts[m]! > 0n && share(i, j)) ? [n] : []
    )
    if (linked.length === 0) return lines
    const run = execute(market, linked.map((n) => paths[members[n]!]!), linked.map((n) => amounts[n]!), side, taxes)
    if (run._tag !== "Filled") return null
    const alone = linked.reduce((sum, n) => sum + worth[n]! + gas[members[n]!]!, 0n)
    return { ...lines, value: lines.value - alone + valueOf(side, run) }
  }
  type Lines = NonNullable<ReturnType<typeof allocate>> & { readonly bound: number }
  const all = allocate(paths.map((_, i) => i))
  if (all === null) return []
  // A first subset: the paths the unconstrained optimum gives most; its last slope prices the bound.
  const first = paths.map((_, i) => i).sort((a, b) => (all.amounts[b]! > all.amounts[a]! ? 1 : -1)).slice(0, k)
  const lambda = allocate(first)?.marginal ?? all.marginal
  const psi = paths.map((_, i) => {
    let j = 0
    for (let s = slope(i, 0); s !== null && s > lambda; s = slope(i, ++j));
    const surplus = Number(F(i, j)!) - lambda * pointsN[j]! - Number(gas[i]!)
    return surplus > 0 ? surplus : 0
  })
  /** As ψ, on the curve that concavity allows between the points rather than on the lines. */
  const lift = paths.map((_, i) => Math.max(psi[i]!, supBound(i, lambda) - Number(gas[i]!)))
  /** A subset's bound at its own last slope, or at λ where that is lower: both bound its exact optimum. */
  const boundOf = (lines: NonNullable<ReturnType<typeof allocate>>) => {
    const own = lines.members.reduce(
      (sum, i) => sum + supBound(i, lines.marginal) - Number(gas[i]!),
      lines.marginal * totalN
    )
    const shared = lines.members.reduce((sum, i) => sum + lift[i]!, lambda * totalN)
    return Math.min(own, shared)
  }
  const order = paths.map((_, i) => i).sort((a, b) => psi[b]! - psi[a]!)
  // The visit goes in the order of ψ; the k largest lifts of what is left bound any extension's lift.
  const liftsLeft: Array<ReadonlyArray<number>> = []
  for (let j = order.length - 1, top: ReadonlyArray<number> = []; j >= 0; j--) {
    const x = lift[order[j]!]!
    const at = top.findIndex((y) => y < x)
    top = (at < 0 ? [...top, x] : [...top.slice(0, at), x, ...top.slice(at)]).slice(0, k)
    liftsLeft[j] = top
  }
  const found: Array<Lines> = []
  const hopeful: Array<Lines> = []
  let priced = 0
  const threshold = () => {
    if (found.length < search.keep) return null
    const worst = Number(found[found.length - 1]!.value)
    // A subset within 10⁻⁷ (0.001 bp) of the worst kept cannot move the answer past the promise.
    return worst + Math.abs(worst) * 1e-7
  }
  const boundBar = () => (hopeful.length < search.keepByBound ? null : hopeful[hopeful.length - 1]!.bound)
  const record = (members: ReadonlyArray<number>) => {
    priced++
    const allocated = allocate(members)
    const joined = allocated === null ? null : joint(allocated)
    if (joined === null) return
    const lines = { ...joined, bound: boundOf(joined) }
    found.push(lines)
    found.sort(byValue)
    if (found.length > search.keep) found.pop()
    hopeful.push(lines)
    hopeful.sort((a, b) => b.bound - a.bound)
    if (hopeful.length > search.keepByBound) hopeful.pop()
  }
  const visit = (from: number, chosen: ReadonlyArray<number>, bound: number, curve: number) => {
    const [bar, high] = [threshold(), boundBar()]
    if (chosen.length > 0 && (bar === null || bound > bar || high === null || curve > high)) record(chosen)
    for (let j = from; j < order.length && chosen.length < k && priced < MAX_PRICED; j++) {
      let [optimistic, hope] = [bound, curve]
      for (let t = j; t < Math.min(order.length, j + k - chosen.length); t++) optimistic += psi[order[t]!]!
      for (const more of liftsLeft[j]!.slice(0, k - chosen.length)) hope += more
      const [now, top] = [threshold(), boundBar()]
      if (now !== null && optimistic <= now && top !== null && hope <= top) break
      visit(j + 1, [...chosen, order[j]!], bound + psi[order[j]!]!, curve + lift[order[j]!]!)
    }
  }
  visit(0, [], lambda * totalN, lambda * totalN)
  const kept = [...found, ...hopeful.filter((lines) => !found.includes(lines))]
  return kept.map(({ marginal: _, worth: __, ...choice }) => choice)
}

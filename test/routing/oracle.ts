/**
 * The exhaustive oracle route search is held to (tests and the routing bench only; never on the request
 * path): the best plan over EVERY subset of the candidate paths of at most `maxSplits` paths, each
 * subset's split optimised exactly on the exact objective (`execute`: paths one after another on one pool
 * state, so shared pools are spent once), net of each used path's gas.
 *
 * Optimising each of thousands of subsets from scratch would take minutes, so a subset is either
 * optimised exactly or proved unable to beat the best found, never skipped on a guess:
 * 1. every path is priced alone at `chunks` equal parts of the order (its value at 0, h, 2h, … T);
 * 2. every subset gets the best allocation on that grid (greedy by next part: exact for concave values)
 *    and, from the grid's marginal λ, a Lagrangian upper bound on its continuous optimum:
 *    V(S) ≤ λ·T + Σᵢ supₓ (fᵢ(x) − λx), each sup bounded by concavity on every part of the grid (on a
 *    part starting at m·h, fᵢ rises no faster than over the part before it, or than its slope at 0);
 *    paths that share a pool are bounded by their values alone, which they can only lose by sharing;
 * 3. subsets in falling order of that bound are optimised exactly from their grid allocation: moving
 *    flow between every pair of paths by an exact integer line search until no pair gains (for concave
 *    values a point no pair can improve is the optimum), until the next bound is below the best value.
 */
import type { Market } from "../../src/routing/Market.js"
import { noTaxes, type Path, runPath, type Side } from "../../src/routing/Path.js"
import { execute } from "../../src/routing/Plan.js"

export interface OracleBest {
  /** Output (exactIn) or minus the input (exactOut), net of gas: higher is better. */
  readonly value: bigint
  readonly paths: ReadonlyArray<Path>
  readonly amounts: ReadonlyArray<bigint>
  /** Subsets considered, and how many of them had to be optimised exactly. */
  readonly subsets: number
  readonly optimised: number
}

export interface OracleOptions {
  readonly chunks?: number
  /** Gas of a path in the objective's token, charged when it carries flow. */
  readonly gas?: (path: Path) => bigint
  /** Optimise every subset exactly, bound or not (to check the bound on small instances). */
  readonly exhaustive?: boolean
}

const valueOf = (side: Side, run: { readonly amountIn: bigint; readonly amountOut: bigint }) =>
  side === "exactIn" ? run.amountOut : -run.amountIn

/** Each path alone at every grid point, as floats (ranking only; the answer is priced in bigint). */
const gridValues = (market: Market, path: Path, side: Side, total: bigint, chunks: number) => {
  const values = new Float64Array(chunks + 1).fill(-Infinity)
  values[0] = 0
  for (let m = 1; m <= chunks; m++) {
    const run = runPath(path, side, (total * BigInt(m)) / BigInt(chunks), market.pool, noTaxes)
    if (run._tag !== "Filled") break
    values[m] = Number(valueOf(side, run))
  }
  // An upper bound on the slope at 0 in value per part: a tiny amount's average, plus its rounding.
  const epsilon = (total / BigInt(chunks)) >> 12n > 1000n ? (total / BigInt(chunks)) >> 12n : 1000n
  const tiny = runPath(path, side, epsilon, market.pool, noTaxes)
  const perUnit = tiny._tag === "Filled" ? (Number(valueOf(side, tiny)) + 2) / Number(epsilon) : Infinity
  const slope0 = perUnit * (Number(total) / chunks) * (1 + 1e-9 * Math.sign(perUnit))
  return { values, slope0 }
}

type Grid = ReturnType<typeof gridValues>

/** Best grid allocation of `chunks` parts over `grids` (greedy by next part) and its marginal. */
const onGrid = (grids: ReadonlyArray<Grid>, chunks: number) => {
  const parts = grids.map(() => 0)
  let marginal = Infinity
  for (let c = 0; c < chunks; c++) {
    let best = -1
    let bestGain = -Infinity
    grids.forEach(({ values }, i) => {
      const gain = parts[i]! < chunks ? values[parts[i]! + 1]! - values[parts[i]!]! : -Infinity
      if (gain > bestGain) [best, bestGain] = [i, gain]
    })
    if (best < 0 || bestGain === -Infinity || Number.isNaN(bestGain)) return null
    parts[best]!++
    marginal = bestGain
  }
  return { parts, marginal }
}

/** supₓ (f(x) − λx) for x in [0, T], in value per part, bounded on every part by concavity. */
const conjugateBound = ({ values, slope0 }: Grid, lambda: number) => {
  let sup = -Infinity
  for (let m = 0; m < values.length; m++) {
    if (values[m] === -Infinity) break
    const slope = m === 0 ? slope0 : values[m]! - values[m - 1]!
    const term = values[m]! - lambda * m + Math.max(0, slope - lambda)
    if (term > sup) sup = term
  }
  return sup
}

/** The largest-value integer t in [low, high] of a concave function (−∞ outside an interval holding 0). */
const lineBest = (phi: (t: bigint) => bigint | null, low: bigint, high: bigint) => {
  const memo = new Map<bigint, bigint | null>()
  const v = (t: bigint) => {
    if (!memo.has(t)) memo.set(t, phi(t))
    return memo.get(t) ?? null
  }
  while (high - low > 2n) {
    const m1 = low + (high - low) / 3n
    const m2 = high - (high - low) / 3n
    const [a, b] = [v(m1), v(m2)]
    if (a === null && b === null) {
      if (m1 >= 0n) high = m1
      else if (m2 <= 0n) low = m2
      else [low, high] = [m1 + 1n, m2 - 1n]
    } else if (a === null || (b !== null && b > a)) low = m1 + 1n
    else high = m2
  }
  let best = { t: 0n, value: v(0n) }
  for (let t = low; t <= high; t++) {
    const value = v(t)
    if (value !== null && (best.value === null || value > best.value)) best = { t, value }
  }
  return best
}

/** A subset's exact optimum from `start`: pairwise exact line searches until no pair gains. */
const optimiseExactly = (market: Market, paths: ReadonlyArray<Path>, side: Side, start: ReadonlyArray<bigint>) => {
  const amounts = [...start]
  const value = (xs: ReadonlyArray<bigint>) => {
    const run = execute(market, paths, xs, side, noTaxes)
    return run._tag === "Filled" ? valueOf(side, run) : null
  }
  let current = value(amounts)
  for (let sweep = 0; sweep < 200 && current !== null; sweep++) {
    let improved = false
    for (let i = 0; i < paths.length; i++) {
      for (let j = i + 1; j < paths.length; j++) {
        // t moves from j to i.
        const phi = (t: bigint) => {
          const trial = [...amounts]
          trial[i] = amounts[i]! + t
          trial[j] = amounts[j]! - t
          return value(trial)
        }
        const line = lineBest(phi, -amounts[i]!, amounts[j]!)
        if (line.value !== null && line.value > current!) {
          amounts[i] = amounts[i]! + line.t
          amounts[j] = amounts[j]! - line.t
          current = line.value
          improved = true
        }
      }
    }
    if (!improved) break
  }
  return current === null ? null : { amounts, value: current }
}

const subsetsOf = (n: number, size: number): Array<Array<number>> => {
  const out: Array<Array<number>> = []
  const visit = (from: number, chosen: Array<number>) => {
    if (chosen.length > 0) out.push([...chosen])
    if (chosen.length === size) return
    for (let i = from; i < n; i++) visit(i + 1, [...chosen, i])
  }
  visit(0, [])
  return out
}

export const oracleBest = (
  market: Market,
  paths: ReadonlyArray<Path>,
  side: Side,
  total: bigint,
  maxSplits: number,
  options: OracleOptions = {}
): OracleBest | null => {
  const chunks = options.chunks ?? 1024
  const gasOf = (path: Path) => options.gas?.(path) ?? 0n
  const grids = paths.map((path) => gridValues(market, path, side, total, chunks))
  const scored = subsetsOf(paths.length, maxSplits).flatMap((subset) => {
    const members = subset.map((i) => grids[i]!)
    const grid = onGrid(members, chunks)
    if (grid === null) return []
    const gas = subset.reduce((sum, i) => sum + Number(gasOf(paths[i]!)), 0)
    const bound = grid.marginal * chunks + members.reduce((sum, g) => sum + conjugateBound(g, grid.marginal), 0) - gas
    return [{ subset, parts: grid.parts, bound: bound + Math.abs(bound) * 1e-9 + 2 * subset.length }]
  }).sort((a, b) => b.bound - a.bound)
  let best: OracleBest | null = null
  let optimised = 0
  for (const { subset, parts, bound } of scored) {
    if (best !== null && bound < Number(best.value) && options.exhaustive !== true) break
    const chosen = subset.map((i) => paths[i]!)
    const start = parts.map((m) => (total * BigInt(m)) / BigInt(chunks))
    const largest = parts.indexOf(Math.max(...parts))
    start[largest] = start[largest]! + total - start.reduce((a, b) => a + b, 0n)
    const exact = optimiseExactly(market, chosen, side, start)
    optimised++
    if (exact === null) continue
    const gas = chosen.reduce((sum, path, i) => (exact.amounts[i]! > 0n ? sum + gasOf(path) : sum), 0n)
    const value = exact.value - gas
    if (best === null || value > best.value) {
      best = { value, paths: chosen, amounts: exact.amounts, subsets: scored.length, optimised }
    }
  }
  return best === null ? null : { ...best, optimised, subsets: scored.length }
}

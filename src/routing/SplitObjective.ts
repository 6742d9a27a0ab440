/**
 * The split optimiser's problem (./Split.ts) and its exact objective: the output (exactIn) or minus the
 * input (exactOut) of an allocation, paths that share a pool priced together on one pool state.
 */
import type { Hex } from "../../schema/Chain.js"
import type { Market } from "./Market.js"
import { type Path, runPath, type Side, type TransferTaxes } from "./Path.js"
import { execute } from "./Plan.js"

export interface SplitProblem {
  readonly market: Market
  readonly paths: ReadonlyArray<Path>
  readonly side: Side
  /** Input (exactIn) or output (exactOut) of the whole order. */
  readonly total: bigint
  readonly maxSplits: number
  readonly taxes: TransferTaxes
  /** Segments of the order that ./SubsetSearch.ts prices each path at (default 32). */
  readonly chunks?: number
}

export const valueOf = (side: Side, run: { readonly amountIn: bigint; readonly amountOut: bigint }): bigint =>
  side === "exactIn" ? run.amountOut : -run.amountIn

export const poolIds = (path: Path): ReadonlySet<Hex> => new Set(path.hops.map((hop) => hop.poolId))

/** Groups of paths linked by shared pools: only a group's paths need pricing together. */
const groupsOf = (paths: ReadonlyArray<Path>): ReadonlyArray<ReadonlyArray<number>> => {
  const parent = paths.map((_, i) => i)
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)))
  const owner = new Map<Hex, number>()
  paths.forEach((path, i) => {
    for (const id of poolIds(path)) {
      const other = owner.get(id)
      if (other === undefined) owner.set(id, i)
      else parent[root(i)] = root(other)
    }
  })
  const groups = new Map<number, Array<number>>()
  paths.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), i]))
  return [...groups.values()]
}

/**
 * The exact objective (`maxSplits` plays no part), memoised per group: a move re-prices only its groups.
 * Most groups are one path: its amount is the memo key as it is, and it is priced alone.
 */
export const objective = (problem: SplitProblem) => {
  const { market, side, taxes } = problem
  const groups = groupsOf(problem.paths)
  const memo = groups.map(() => new Map<bigint | string, bigint | null>())
  const members = groups.map((group) => group.map((i) => problem.paths[i]!))
  let evaluations = 0
  const price = (g: number, amounts: ReadonlyArray<bigint>): bigint | null => {
    const group = groups[g]!
    if (group.length === 1) {
      // As `execute` does: an unused path carries nothing and is worth nothing.
      const amount = amounts[group[0]!]!
      if (amount === 0n) return 0n
      const run = runPath(members[g]![0]!, side, amount, market.pool, taxes)
      return run._tag === "Filled" ? valueOf(side, run) : null
    }
    const run = execute(market, members[g]!, group.map((i) => amounts[i]!), side, taxes)
    return run._tag === "Filled" ? valueOf(side, run) : null
  }
  const group = (g: number, amounts: ReadonlyArray<bigint>): bigint | null => {
    const indices = groups[g]!
    const key = indices.length === 1 ? amounts[indices[0]!]! : indices.map((i) => amounts[i]!).join(",")
    const known = memo[g]!.get(key)
    if (known !== undefined) return known
    evaluations++
    const value = price(g, amounts)
    memo[g]!.set(key, value)
    return value
  }
  return {
    value: (amounts: ReadonlyArray<bigint>): bigint | null => {
      let sum = 0n
      for (let g = 0; g < groups.length; g++) {
        const value = group(g, amounts)
        if (value === null) return null
        sum += value
      }
      return sum
    },
    evaluations: () => evaluations
  }
}

/**
 * The brute-force optimum of splitting one order over a few paths: every allocation on a 1 % grid, then
 * every allocation on a 0.01 % grid within one coarse step of the best one. Each allocation is priced the
 * way a plan executes (paths in turn on one pool state), so the result is the yardstick the optimiser
 * must reach, not a second optimiser.
 */
import type { Market } from "../../../../src/routing/Market.js"
import { noTaxes, type Path, type Side } from "../../../../src/routing/Path.js"
import { execute } from "../../../../src/routing/Plan.js"

/** Shares are counted in units of 1/100,000 of the order. */
const WHOLE = 100_000
const COARSE = 1_000
const FINE = 10

export interface GridOptimum {
  readonly amounts: ReadonlyArray<bigint>
  /** Output (exactIn) or minus the input (exactOut). */
  readonly value: bigint
  readonly evaluations: number
}

export const gridOptimum = (market: Market, paths: ReadonlyArray<Path>, side: Side, total: bigint): GridOptimum => {
  let best: { shares: ReadonlyArray<number>; amounts: ReadonlyArray<bigint>; value: bigint } | undefined
  let evaluations = 0
  const price = (shares: ReadonlyArray<number>) => {
    const amounts = shares.map((share) => (total * BigInt(share)) / BigInt(WHOLE))
    amounts[amounts.length - 1] = total - amounts.slice(0, -1).reduce((a, b) => a + b, 0n)
    evaluations++
    const run = execute(market, paths, amounts, side, noTaxes)
    if (run._tag !== "Filled") return
    const value = side === "exactIn" ? run.amountOut : -run.amountIn
    if (best === undefined || value > best.value) best = { shares, amounts, value }
  }
  // Every path but the last gets a share within [low, high]; the last takes the rest.
  const visit = (
    prefix: ReadonlyArray<number>,
    low: ReadonlyArray<number>,
    high: ReadonlyArray<number>,
    step: number
  ) => {
    const used = prefix.reduce((a, b) => a + b, 0)
    if (prefix.length === paths.length - 1) return price([...prefix, WHOLE - used])
    const i = prefix.length
    for (let share = low[i]!; share <= Math.min(high[i]!, WHOLE - used); share += step) {
      visit([...prefix, share], low, high, step)
    }
  }
  visit([], paths.map(() => 0), paths.map(() => WHOLE), COARSE)
  const coarse = best
  if (coarse !== undefined) {
    visit(
      [],
      coarse.shares.map((share) => Math.max(0, share - COARSE)),
      coarse.shares.map((share) => Math.min(WHOLE, share + COARSE)),
      FINE
    )
  }
  if (best === undefined) throw new Error("no allocation of the grid fills the order")
  return { amounts: best.amounts, value: best.value, evaluations }
}

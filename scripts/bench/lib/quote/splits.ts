/**
 * The quote's own split against the best single path and the brute-force optimum over the plan's paths
 * (grid.ts), on a table of order sizes. Everything comes from the quote's answer: `best.legs` for
 * the plan, `routes` for every candidate alone; the grid prices the plan's paths on the same snapshot.
 * The quote nets gas at the chain's gas price; the columns compare gross output, as the grid does.
 */
import { formatUnits, parseUnits } from "viem"
import { marketFromIndex } from "../../../../src/routing/Market.js"
import type { QuoteBench } from "./context.js"
import { gridOptimum } from "./grid.js"

const SIZES = [10_000, 100_000, 500_000, 1_000_000, 2_000_000, 5_000_000]

const bps = (a: bigint, b: bigint) => (Number(a - b) / Number(b)) * 10_000
const signed = (value: number) =>
  `${value >= 0 ? "+" : ""}${Math.abs(value) >= 0.01 || value === 0 ? value.toFixed(2) : value.toExponential(1)}`
const weth = (raw: bigint) => Number(formatUnits(raw, 18)).toFixed(6)

export const splitTable = async (bench: QuoteBench) => {
  const { ask, token, state } = bench
  console.log("\n   USDC→WETH exactIn through `quote` (maxSplits 3, gas netted at the chain's price); brute force:")
  console.log("   1 % grid over the plan's paths, then 0.01 % within ±1 % of its best")
  console.log(
    "   | Order (USDC) | Legs | Best single (WETH) | Quote's plan (WETH) | vs single | Brute force (WETH) | vs brute force |"
  )
  let worst = Infinity
  for (const size of SIZES) {
    const answer = await ask({ sell: token("USDC"), buy: token("WETH"), amount: String(size) })
    if (answer.block !== state.block) throw new Error(`quoted at block ${answer.block}, index read at ${state.block}`)
    const paths = bench.pathsOf(answer)
    const single = answer.routes.reduce(
      (top, route) => {
        const out = route.amountOutQuoted === undefined ? 0n : parseUnits(route.amountOutQuoted, 18)
        return out > top ? out : top
      },
      0n
    )
    const planOut = BigInt(answer.best.amountOutQuotedRaw)
    const legs = answer.best.legs
    // A one-leg plan: the grid still splits over the two best candidates, to show nothing was left out.
    const ranked = answer.routes
      .map((route, i) => ({
        path: paths[i]!,
        out: route.amountOutQuoted === undefined ? 0n : parseUnits(route.amountOutQuoted, 18)
      }))
      .sort((a, b) => (a.out === b.out ? 0 : a.out > b.out ? -1 : 1))
    const planPaths = legs.length > 1
      ? legs.map((leg) => paths[answer.routes.findIndex((route) => route.routeId === leg.routeId)]!)
      : ranked.slice(0, 2).map((entry) => entry.path)
    const grid = gridOptimum(marketFromIndex(state), planPaths, "exactIn", parseUnits(String(size), 6))
    worst = Math.min(worst, bps(planOut, grid.value))
    const cells = [
      size.toLocaleString("en-US"),
      String(legs.length),
      weth(single),
      weth(planOut),
      `${signed(bps(planOut, single))} bp`,
      weth(grid.value),
      `${signed(bps(planOut, grid.value))} bp`
    ]
    console.log(`   | ${cells.join(" | ")} |`)
  }
  console.log(`   worst plan vs brute force: ${signed(worst)} bp (negative: below the grid's optimum)`)
}

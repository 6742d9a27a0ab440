/**
 * The quote with every devnet venue (issue 21). Latency, warm and cold, with the whole venue file against
 * a baseline in the same run: the same orders restricted (`venues`) to the canonical Uniswap set the
 * devnet had before its forks. Then what routing across forks gains: the same USDC↔WETH orders quoted
 * on every venue together against the best answer of any single venue alone, in base units and bps of
 * gross output (the plans' `amountOutQuotedRaw`, before gas).
 */
import { formatUnits, parseUnits } from "viem"
import type { QuoteResponse } from "../../../../schema/Quote.js"
import { latency } from "../report.js"
import type { QuoteBench } from "./context.js"

const WARM = 500
const COLD = 60
const CANONICAL = ["uniswap-v2", "uniswap-v3", "uniswap-v4", "launchpad"]
const SIZES = ["1000", "10000", "100000", "500000"]

const planOut = (answer: QuoteResponse) =>
  answer.best.legs.reduce((sum, leg) => sum + BigInt(leg.amountOutQuotedRaw), 0n)

export const venueFigures = async ({ ask, token, manifest }: QuoteBench) => {
  const ids = manifest.venues!.venues.map((venue) => venue.id)
  const sets = { "every venue": {}, "canonical set (baseline)": { venues: CANONICAL } }
  const order = (amount: string, filter: object) => ({ sell: token("USDC"), buy: token("WETH"), amount, ...filter })
  const time = async (request: object) => {
    const started = performance.now()
    await ask(request as Record<string, unknown>)
    return performance.now() - started
  }
  console.log(`\n   venues: ${ids.join(", ")}; baseline: ${CANONICAL.join(", ")}`)
  for (const filter of Object.values(sets)) for (let i = 0; i < 50; i++) await time(order("2500", filter))
  // Interleaved, so that both see the same machine load.
  const warm = { every: [] as Array<number>, base: [] as Array<number> }
  for (let i = 0; i < WARM; i++) {
    warm.every.push(await time(order("2500", sets["every venue"])))
    warm.base.push(await time(order("2500", sets["canonical set (baseline)"])))
  }
  latency("warm quote $2,500, every venue (after)", warm.every)
  latency("… canonical set only (before)", warm.base)
  const cold = { every: [] as Array<number>, base: [] as Array<number> }
  for (let i = 0; i < COLD; i++) {
    cold.every.push(await time(order(`${4_000 + i}.5`, sets["every venue"])))
    cold.base.push(await time(order(`${5_000 + i}.5`, sets["canonical set (baseline)"])))
  }
  latency("cold quote (new size), every venue (after)", cold.every)
  latency("… canonical set only (before)", cold.base)

  console.log("\n   | Order | Best single venue | its output | Every venue: legs (venues) | output | gain |")
  for (const [sell, buy, decimals] of [["USDC", "WETH", 6], ["WETH", "USDC", 18]] as const) {
    for (const size of SIZES) {
      const amount = sell === "USDC" ? size : formatUnits(parseUnits(size, 6) * 10n ** 12n / 2_500n, 18)
      const request = { sell: token(sell), buy: token(buy), amount }
      const all = await ask(request)
      const singles = await Promise.all(
        ids.map((id) =>
          ask({ ...request, venues: [id] }).then((answer) => ({ id, out: planOut(answer) }), () => ({ id, out: 0n }))
        )
      )
      const best = singles.reduce((top, entry) => (entry.out > top.out ? entry : top))
      const out = planOut(all)
      const used = new Set(all.best.legs.flatMap((leg) => leg.hops.map((hop) => hop.venue)))
      const gain = out - best.out
      const bps = best.out === 0n ? "n/a" : `${(Number((gain * 1_000_000n) / best.out) / 100).toFixed(2)} bp`
      const label = `${formatUnits(parseUnits(amount, decimals), decimals)} ${sell}→${buy}`
      console.log(
        `   | ${label} | ${best.id} | ${best.out} | ${all.best.legs.length} (${
          [...used].join(", ")
        }) | ${out} | +${gain} (${bps}) |`
      )
    }
  }
}

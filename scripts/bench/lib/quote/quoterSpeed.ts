/**
 * Pricing the quote's own candidate paths from the in-memory index against asking the venues' quoters
 * on chain at the same block (lib/quoters.ts: each venue's own quoter, pool or pair), in one run. The
 * quoters' answers are also compared with the index's, to the base unit, and so is which candidates a pool
 * cannot fill; each candidate that differs, and each venue the bench could not ask, is printed.
 */
import { marketFromIndex } from "../../../../src/routing/Market.js"
import { noTaxes, runPath } from "../../../../src/routing/Path.js"
import { chainQuoter } from "../quoters.js"
import { figure, ms, percentile } from "../report.js"
import type { QuoteBench } from "./context.js"

const median = (samples: Array<number>) => percentile(samples.sort((a, b) => a - b), 50)

const timeSync = (run: () => void, repeat: number) =>
  median(Array.from({ length: repeat }, () => {
    const started = performance.now()
    run()
    return performance.now() - started
  }))

const timeAsync = async (run: () => Promise<unknown>, repeat: number) => {
  const samples: Array<number> = []
  for (let i = 0; i < repeat; i++) {
    const started = performance.now()
    await run()
    samples.push(performance.now() - started)
  }
  return median(samples)
}

export const quoterSpeed = async (bench: QuoteBench) => {
  const { ask, token, state, manifest } = bench
  const mix: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ["USDC→WETH $1k", { sell: token("USDC"), buy: token("WETH"), amount: "1000" }],
    ["USDC→WETH $100k", { sell: token("USDC"), buy: token("WETH"), amount: "100000" }],
    ["USDC→WETH $2M", { sell: token("USDC"), buy: token("WETH"), amount: "2000000" }],
    ["WETH→USDC 10 WETH", { sell: token("WETH"), buy: token("USDC"), amount: "10" }],
    ["WETH→WBTC 50 WETH (graph)", { sell: token("WETH"), buy: token("WBTC"), amount: "50" }],
    ["USDC→DEGEN $5k", { sell: token("USDC"), buy: token("DEGEN"), amount: "5000" }],
    ["ORBIT→USDC 20k ORBIT", { sell: token("ORBIT"), buy: token("USDC"), amount: "20000" }]
  ]
  const onChain = chainQuoter(manifest, marketFromIndex(state))
  const block = BigInt(state.block)
  console.log("")
  const totals = { chain: 0, memory: 0, quote: 0, candidates: 0, equal: 0, compared: 0, unfillable: 0, simulated: 0 }
  const differing: Array<string> = []
  const refusals = new Set<string>()
  for (const [label, request] of mix) {
    const answer = await ask(request)
    const paths = bench.pathsOf(answer)
    const amount = BigInt(answer.sell.amountRaw)
    const inMemory = () => {
      const market = marketFromIndex(state)
      return paths.map((path) => runPath(path, "exactIn", amount, market.pool, noTaxes))
    }
    const memory = timeSync(inMemory, 200)
    const whole = await timeAsync(() => ask(request), 50) // warm: the verdict is cached
    const chain = await timeAsync(() => onChain(paths, amount, block), 7)
    const fromChain = await onChain(paths, amount, block)
    inMemory().forEach((run, i) => {
      const quoted = fromChain[i]!
      const at = `${label} ${paths[i]!.key}`
      // The service prices these hops by simulating them on chain, not from the index.
      if (run._tag === "NeedsSimulation") return void totals.simulated++
      if (run._tag === "Filled" && typeof quoted === "bigint") {
        totals.compared++
        if (quoted === run.amountOut) totals.equal++
        else differing.push(`${at}: quoters ${quoted}, index ${run.amountOut}`)
      } else if (run._tag === "Unfillable" && quoted === "unfillable") {
        totals.unfillable++
      } else if (typeof quoted === "object") {
        refusals.add(`${quoted.venue}: ${quoted.reason}`)
      } else {
        differing.push(`${at}: quoters ${quoted}, index ${run._tag}`)
      }
    })
    totals.chain += chain
    totals.memory += memory
    totals.quote += whole
    totals.candidates += paths.length
    figure(
      `${label}: ${paths.length} candidates`,
      `quoters ${ms(chain)}; index ${ms(memory)} (${(chain / memory).toFixed(0)}×); ` +
        `whole warm quote ${ms(whole)} (${(chain / whole).toFixed(1)}×)`
    )
  }
  figure(
    `mix of ${mix.length} quotes, ${totals.candidates} candidates`,
    `quoters ${ms(totals.chain)} vs index ${ms(totals.memory)}: ${(totals.chain / totals.memory).toFixed(0)}×; ` +
      `vs whole warm quotes ${ms(totals.quote)}: ${(totals.chain / totals.quote).toFixed(1)}×`
  )
  figure(
    "quoters' answers equal to the index's",
    `${totals.equal} of ${totals.compared} priced candidates; unfillable on both ${totals.unfillable}; ` +
      `${totals.simulated} through hooks the service simulates`
  )
  for (const line of differing) console.log(`     differs: ${line}`)
  for (const line of refusals) console.log(`     the chain could not be asked: ${line}`)
}

/**
 * Route search with many venues (issue 34): generated USDC/WETH markets (v2, v3, v4 pools of random depth
 * and fee, one shallow pool priced 1–2 % better, a hub with shared pools; test/routing/venueMarket.ts)
 * of 20 venues, beside markets of the devnet's 7 (its AMM venues on USDC/WETH) in the same run. Latency
 * of `findRoute` with splits (maxSplits 3, gas at 20 gwei netted) beside the same requests priced without
 * splits (maxSplits 1), as wall time and as CPU time per call (what the process itself spent: on a shared,
 * loaded machine wall time mostly measures the wait for a core); the load average is printed. Then every
 * 20-venue plan against the exhaustive oracle (test/routing/oracle.ts: every subset of at most 3 of the
 * candidate paths, each split optimised exactly), and how often the plan uses the shallow, cheaper pool.
 */
import { loadavg } from "node:os"
import { findRoute, type RouteRequest } from "../../src/routing/FindRoute.js"
import { gasInToken, pathGasUnits } from "../../src/routing/Gas.js"
import { marketFromPools } from "../../src/routing/Market.js"
import { oracleBest } from "../../test/routing/oracle.js"
import { marketGas, marketOrder, orderSize, seeded, venueMarket } from "../../test/routing/venueMarket.js"
import { figure, latency, ms } from "./lib/report.js"

const VENUES = 20
/** The devnet's AMM venues with a USDC/WETH pool (uniswap v2/v3/v4, lowfee-v2, fork-v3, pairfee-v2, pancake-v3). */
const DEVNET_VENUES = 7
const MARKETS = 12
const REPEAT = 60
const E6 = 10n ** 6n
const E18 = 10n ** 18n

// One market per seed and venue count, kept as a snapshot's is: its pair lookups are remembered.
const markets = new Map<string, ReturnType<typeof marketFromPools>>()
const marketOf = (seed: number, venues: number) => {
  const key = `${seed}/${venues}`
  if (!markets.has(key)) markets.set(key, marketFromPools(venueMarket(seed, venues).pools))
  return markets.get(key)!
}

const request = (
  seed: number,
  side: RouteRequest["side"],
  amount: bigint,
  maxSplits: number,
  venues = VENUES
): RouteRequest => marketOrder(marketOf(seed, venues), side, amount, maxSplits, marketGas(side, 20n))

const orders: ReadonlyArray<readonly [string, RouteRequest["side"], bigint]> = [
  ["$2,500 USDC→WETH", "exactIn", 2_500n * E6],
  ["$30,000 USDC→WETH", "exactIn", 30_000n * E6],
  ["$100,000 USDC→WETH", "exactIn", 100_000n * E6],
  ["exactOut 10 WETH", "exactOut", 10n * E18]
]

const cpuMs = () => {
  const { system, user } = process.cpuUsage()
  return (user + system) / 1000
}

/** Wall time of each call, and the CPU time the process spent over all of them. */
const time = (make: () => RouteRequest) => {
  const samples: Array<number> = []
  const cpuBefore = cpuMs()
  for (let i = 0; i < REPEAT; i++) {
    const req = make()
    const started = performance.now()
    findRoute(req)
    samples.push(performance.now() - started)
  }
  return { samples, cpu: cpuMs() - cpuBefore }
}

const load = () => loadavg().map((x) => x.toFixed(1)).join(" ")
console.log(`   load average at the start: ${load()}`)
for (let seed = 1; seed <= 3; seed++) for (const [, side, amount] of orders) time(() => request(seed, side, amount, 3))
console.log(`   ${MARKETS} generated markets per venue count (+4 hub pools), ${REPEAT} calls per order and market`)
for (const [label, side, amount] of orders) {
  for (const venues of [DEVNET_VENUES, VENUES]) {
    const split: Array<number> = []
    const single: Array<number> = []
    let [splitCpu, singleCpu] = [0, 0]
    for (let seed = 1; seed <= MARKETS; seed++) {
      const withSplits = time(() => request(seed, side, amount, 3, venues))
      const alone = time(() => request(seed, side, amount, 1, venues))
      split.push(...withSplits.samples)
      single.push(...alone.samples)
      splitCpu += withSplits.cpu
      singleCpu += alone.cpu
    }
    const perCall = (total: number) => ms(total / (MARKETS * REPEAT))
    latency(`${venues} venues: findRoute ${label}, maxSplits 3`, split)
    figure("  … CPU per call", perCall(splitCpu))
    latency(`  … maxSplits 1 (pricing only, baseline)`, single)
    figure("  … CPU per call", perCall(singleCpu))
  }
}
console.log(`   load average after the timings: ${load()}`)

console.log("\n   against the exhaustive oracle (every subset of ≤ 3 candidate paths, each split optimised exactly)")
let worst = 0
let cheapUsed = 0
let cheapInOracle = 0
let cases = 0
for (let seed = 1; seed <= MARKETS; seed++) {
  const u = seeded(seed * 31)
  for (const side of ["exactIn", "exactOut"] as const) {
    const req = request(seed, side, orderSize(side, u()), 3)
    const result = findRoute(req)
    const plan = result.best!
    const oracle = oracleBest(
      req.market,
      result.candidates.map((c) => c.path),
      side,
      req.amount,
      3,
      { gas: (path) => gasInToken(req.gas, pathGasUnits(req.gas, path)) }
    )!
    const net = side === "exactIn" ? plan.amountOut - plan.gasInToken : -(plan.amountIn + plan.gasInToken)
    const scale = oracle.value < 0n ? -oracle.value : oracle.value
    const shortfall = Number(((oracle.value - net) * 10n ** 9n) / scale) / 1e5
    worst = Math.max(worst, shortfall)
    const cheap = venueMarket(seed, VENUES).cheapVenue
    const uses = (keys: ReadonlyArray<string>) => keys.some((key) => key.startsWith(`${cheap}:`))
    if (uses(plan.legs.map((leg) => leg.path.key))) cheapUsed++
    if (uses(oracle.paths.map((path) => path.key))) cheapInOracle++
    cases++
  }
}
figure("plans (exactIn $5k–$100k, exactOut 2–30 WETH)", `${cases}`)
figure("worst shortfall against the oracle, net of gas", `${worst.toFixed(5)} bp`)
figure("plans using the shallow, cheaper pool", `${cheapUsed} (the oracle's best: ${cheapInOracle})`)

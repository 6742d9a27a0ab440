/**
 * The quote at 20 venues and chain scale (issue 34), on a private devnet, in-process: the devnet's own
 * market (8 venues); the same with 12 more v2-family venues (lib/venues/venues.ts), each with every hub
 * pair at its own depth and price (lib/venues/market.ts); then VENUES_SCALE_POOLS (default 10,000) more
 * pools over the v2 venues, two per new token against hubs. Each market is indexed afresh and measured
 * the same way (lib/venues/measure.ts); the three print side by side, with the load average.
 */
import { loadavg } from "node:os"
import { benchDevnet } from "./lib/devnet.js"
import { figure, ms } from "./lib/report.js"
import { chainOf } from "./lib/venues/chain.js"
import { venueMarket } from "./lib/venues/market.js"
import { type MarketFigures, measureMarket } from "./lib/venues/measure.js"
import { growVenues } from "./lib/venues/venues.js"

const VENUES = 20
const POOLS = Number(process.env["VENUES_SCALE_POOLS"] ?? 10_000)

const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`
const load = () => loadavg().map((value) => value.toFixed(1)).join(" ")

const devnet = await benchDevnet("many-venues")
try {
  const own = await measureMarket(devnet.manifest)
  console.log(`   devnet market measured (load ${load()}); adding venues`)
  const chain = chainOf(devnet.manifest)
  let t0 = performance.now()
  const grown = await growVenues(chain, devnet.manifest, VENUES)
  const market = await venueMarket(chain, devnet.manifest)
  const hubPools = await market.seedHubPairs(grown.added)
  console.log(`   ${grown.added.length} venues and ${hubPools} hub-pair pools added in ${seconds(t0)}`)
  const wide = await measureMarket(grown.manifest)
  console.log(`   ${VENUES} venues measured (load ${load()}); adding ${POOLS} pools`)
  t0 = performance.now()
  const pools = await market.seedTokenPools(grown.v2Factories, POOLS)
  console.log(`   ${pools} pools added over ${grown.v2Factories.length} v2 venues in ${seconds(t0)}`)
  const large = await measureMarket(grown.manifest)
  const row = (label: string, of: (f: MarketFigures) => string) =>
    figure(label, [own, wide, large].map(of).join("  |  "))
  console.log("")
  row("venues | pools | tokens", (f) => `${f.venues} venues, ${f.pools} pools, ${f.tokens} tokens`)
  row("answer: routes, venues among them", (f) => `${f.answer.routes} routes, ${f.answer.venues} venues`)
  row("quote USDC→WETH warm p50 / p99", (f) => `${ms(f.warm.p50)} / ${ms(f.warm.p99)}`)
  row("… CPU / GC pauses per warm quote", (f) => `${ms(f.warmCpuMs)} / ${ms(f.warmGcMs)}`)
  row(
    "… its route search alone p50 / p99, candidates",
    (f) => `${ms(f.search.p50)} / ${ms(f.search.p99)}, ${f.search.candidates}`
  )
  row(
    "… the same after each new block p50 / p99, CPU",
    (f) =>
      `${ms(f.newBlock.p50)} / ${ms(f.newBlock.p99)}, ${ms(f.newBlock.cpuMs)}` +
      (f.newBlock.refused > 0 ? `, ${f.newBlock.refused} refused` : "")
  )
  row("quote USDC→WETH cold p50 / p99", (f) => `${ms(f.cold.p50)} / ${ms(f.cold.p99)}`)
  row("heap after GC / RSS", (f) => `${f.heapMb.toFixed(0)} MB / ${f.rssMb.toFixed(0)} MB`)
  row("catch-up from an empty index", (f) => `${(f.catchUpMs / 1000).toFixed(1)} s`)
  row("start-up from its checkpoint", (f) => `${(f.restartMs / 1000).toFixed(1)} s`)
  figure("load average (1, 5, 15 min) at the end", load())
} finally {
  await devnet.stop()
}

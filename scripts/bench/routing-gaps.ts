/**
 * A search for plans short of the exhaustive oracle (issue 34), over more generated markets than the
 * property test can afford: `ROUTING_GAP_CASES` orders (default 200) on the two families of
 * test/routing/venueMarket.ts, in turn: 10–20 venues of v2/v3/v4 pools with a shallow, cheaper pool and
 * a hub of four shared pools; 3–6 venues each holding both hub pairs as v2 pairs, where two-hop paths
 * share pools (`hubbedVenueMarket`, the family of the defect); and 10–20 venues of which 2–4 hold both
 * hub pairs of any family, fee and depth, one of them shallow and cheaper (`mixed`). exactIn and exactOut, maxSplits 2 or 3, gas 0, 20 or 2,000 gwei, each
 * case drawn from its own seed (printed with the worst, so it reproduces). The oracle is
 * test/routing/oracle.ts over every candidate path, dropped ones included. A case can take the oracle
 * minutes, so each prints its line as it ends (its gap in bp and its time); `ROUTING_GAP_FIRST` starts
 * from a later case, so a run stopped part way can be taken up where it stopped.
 */
import { loadavg } from "node:os"
import { findRoute, netValue } from "../../src/routing/FindRoute.js"
import { gasInToken, pathGasUnits } from "../../src/routing/Gas.js"
import { marketFromPools } from "../../src/routing/Market.js"
import { oracleBest } from "../../test/routing/oracle.js"
import {
  hubbedVenueMarket,
  marketGas,
  marketOrder,
  orderSize,
  seeded,
  venueMarket
} from "../../test/routing/venueMarket.js"
import { figure } from "./lib/report.js"

const CASES = Number(process.env["ROUTING_GAP_CASES"] ?? 200)
const FIRST = Number(process.env["ROUTING_GAP_FIRST"] ?? 1)

const load = () => loadavg().map((x) => x.toFixed(1)).join(" ")
console.log(`   load average at the start: ${load()}`)
const started = performance.now()
const families = ["venues", "hubbed", "mixed"] as const
const worst = Object.fromEntries(families.map((family) => [family, { bp: 0, at: "none" }]))
let over = 0
const worstBySide = { exactIn: 0, exactOut: 0 }
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`
for (let n = FIRST; n < FIRST + CASES; n++) {
  const caseStarted = performance.now()
  const next = seeded(n * 7919)
  const family = families[n % 3]!
  const seed = 1 + Math.floor(next() * 1_000_000)
  const venues = family === "hubbed" ? 3 + Math.floor(next() * 4) : 10 + Math.floor(next() * 11)
  const holders = family === "mixed" ? 2 + Math.floor(next() * 3) : venues
  const side = next() < 0.5 ? "exactIn" as const : "exactOut" as const
  const amount = orderSize(side, next())
  const maxSplits = next() < 0.5 ? 2 : 3
  const gwei = [0n, 20n, 2_000n][Math.floor(next() * 3)]!
  const generated = family === "venues"
    ? venueMarket(seed, venues)
    : hubbedVenueMarket(seed, venues, { venues: holders, mixed: family === "mixed" })
  const market = marketFromPools(generated.pools)
  const gas = marketGas(side, gwei)
  const searchStarted = performance.now()
  const result = findRoute(marketOrder(market, side, amount, maxSplits, gas))
  const searchMs = performance.now() - searchStarted
  const oracle = oracleBest(market, result.candidates.map((c) => c.path), side, amount, maxSplits, {
    gas: (path) => gasInToken(gas, pathGasUnits(gas, path))
  })!
  const scale = oracle.value < 0n ? -oracle.value : oracle.value
  const bp = Number(((oracle.value - netValue(result.best!)) * 10n ** 9n) / scale) / 1e5
  const hubs = family === "mixed" ? ` (${holders} with hub pairs)` : ""
  const at = `case ${n}: seed ${seed}, ${venues} venues${hubs}, ${side} ${amount}, maxSplits ${maxSplits}, ${gwei} gwei`
  console.log(
    `   ${at}: ${family}, gap ${bp.toFixed(5)} bp, ${seconds(caseStarted)} (search ${searchMs.toFixed(1)} ms)`
  )
  if (bp > 0.01) over++
  if (bp > worst[family]!.bp) worst[family] = { bp, at }
  if (bp > worstBySide[side]) worstBySide[side] = bp
}
figure("cases, a third of each family", `${CASES} from case ${FIRST}`)
for (const family of families) {
  figure(`worst shortfall, ${family}`, `${worst[family]!.bp.toFixed(5)} bp (${worst[family]!.at})`)
}
figure(
  "worst shortfall exactIn / exactOut",
  `${worstBySide.exactIn.toFixed(5)} / ${worstBySide.exactOut.toFixed(5)} bp`
)
figure("cases short by more than 0.01 bp", `${over}`)
figure("time", `${seconds(started)}; load average after: ${load()}`)

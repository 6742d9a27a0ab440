/**
 * A search for plans short of the exhaustive oracle (issue 34), over more generated markets than the
 * property test can afford: `ROUTING_GAP_CASES` orders (default 200) on the two families of
 * test/routing/venueMarket.ts, in turn: 10–20 venues of v2/v3/v4 pools with a shallow, cheaper pool and
 * a hub of four shared pools; 3–6 venues each holding both hub pairs as v2 pairs, where two-hop paths
 * share pools (`hubbedVenueMarket`, the family of the defect); and 10–20 venues of which 2–4 hold both
 * hub pairs of any family, fee and depth, one of them shallow and cheaper (`mixed`). exactIn and exactOut, maxSplits 2 or 3, gas 0, 20 or 2,000 gwei, each
 * case drawn from its own seed (printed with the worst, so it reproduces). The oracle is
 * test/routing/oracle.ts over every candidate path, dropped ones included.
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
for (let n = FIRST; n < FIRST + CASES; n++) {
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
  const result = findRoute(marketOrder(market, side, amount, maxSplits, gas))
  const oracle = oracleBest(market, result.candidates.map((c) => c.path), side, amount, maxSplits, {
    gas: (path) => gasInToken(gas, pathGasUnits(gas, path))
  })!
  const scale = oracle.value < 0n ? -oracle.value : oracle.value
  const bp = Number(((oracle.value - netValue(result.best!)) * 10n ** 9n) / scale) / 1e5
  if (bp > 0.01) over++
  if (bp > worst[family]!.bp) {
    const hubs = family === "mixed" ? ` (${holders} with hub pairs)` : ""
    const at =
      `case ${n}: seed ${seed}, ${venues} venues${hubs}, ${side} ${amount}, maxSplits ${maxSplits}, ${gwei} gwei`
    worst[family] = { bp, at }
  }
}
figure("cases, a third of each family", `${CASES} from case ${FIRST}`)
for (const family of families) {
  figure(`worst shortfall, ${family}`, `${worst[family]!.bp.toFixed(5)} bp (${worst[family]!.at})`)
}
figure("cases short by more than 0.01 bp", `${over}`)
figure("time", `${((performance.now() - started) / 1000).toFixed(0)} s; load average after: ${load()}`)

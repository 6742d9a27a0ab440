/**
 * The service at chain scale (issue 37): the devnet's own market, then the same devnet grown by
 * SCALE_POOLS (default 10,000) real Uniswap v2 pools created through its own factory
 * (lib/devnetMarket.ts), each size indexed afresh and measured the same way (lib/scale/phase.ts):
 * quote USDC→WETH warm (same order, verdict cached) and cold (new size: fresh simulation), search,
 * memory, catch-up from an empty index, RPC errors (answers `RpcUnavailable` and indexer stream
 * failures), and the safety scan's coverage (tokens judged in SCALE_SCAN_SEC, and the share of
 * search results that carry a verdict then). The two sizes print side by side.
 */
import { benchDevnet } from "./lib/devnet.js"
import { devnetMarket } from "./lib/devnetMarket.js"
import { figure, ms } from "./lib/report.js"
import { phase, type PhaseFigures } from "./lib/scale/phase.js"

const POOLS = Number(process.env["SCALE_POOLS"] ?? 10_000)
const SCAN_SEC = Number(process.env["SCALE_SCAN_SEC"] ?? 60)
const QUERIES = ["WETH", "USDC", "B4242", "Bench Token 77", "Bench", "0x", "EURC", "nothing"]

const devnet = await benchDevnet("scale")
try {
  const small = await phase(devnet.manifest, SCAN_SEC, QUERIES)
  console.log(`   devnet market measured: ${small.pools} pools; building ${POOLS} more`)
  const t0 = performance.now()
  const market = await devnetMarket(devnet.manifest, POOLS)
  await market.build(0, POOLS)
  console.log(
    `   built ${POOLS} pools through the devnet's v2 factory in ${((performance.now() - t0) / 1000).toFixed(1)} s`
  )
  const large = await phase(devnet.manifest, SCAN_SEC, QUERIES)
  const row = (label: string, of: (f: PhaseFigures) => string) => figure(label, `${of(small)}  |  ${of(large)}`)
  console.log("")
  row("pools | tokens", (f) => `${f.pools} pools, ${f.tokens} tokens`)
  row("quote warm p50 / p99", (f) => `${ms(f.warm.p50)} / ${ms(f.warm.p99)}`)
  row("quote cold p50 / p99", (f) => `${ms(f.cold.p50)} / ${ms(f.cold.p99)}`)
  row(
    "GC during the warm quotes: total, max, full",
    (f) => `${ms(f.warmGc.totalMs)}, ${ms(f.warmGc.maxMs)}, ${f.warmGc.major}`
  )
  row("event-loop delay during them: p99, max", (f) => `${ms(f.warmLoopDelay.p99)}, ${ms(f.warmLoopDelay.max)}`)
  row(
    "quote warm p50 / p99 / max while checkpoints are written",
    (f) =>
      `${ms(f.warmCheckpointing.p50)} / ${ms(f.warmCheckpointing.p99)} / ${
        ms(f.warmCheckpointing.max)
      } (${f.warmCheckpointing.checkpoints} written)`
  )
  row("search p50", (f) => ms(f.searchP50))
  row("RSS / heap after GC", (f) => `${f.rssMb.toFixed(0)} MB / ${f.heapMb.toFixed(0)} MB`)
  row("catch-up from an empty index", (f) => `${(f.catchUpMs / 1000).toFixed(1)} s`)
  row("RPC errors", (f) => String(f.rpcErrors))
  for (const [label, f] of [["devnet", small], [String(POOLS), large]] as const) {
    for (const kind of f.errorKinds) console.log(`     refused at ${label}: ${kind}`)
  }
  row(
    `scan: judged in ≤${SCAN_SEC} s, per s`,
    (f) => `${f.scan.judged}/${f.tokens} (${f.scan.perSec.toFixed(1)}/s)`
  )
  row("scan: search results with a verdict", (f) => `${(100 * f.scan.shownWithVerdict).toFixed(0)} %`)
} finally {
  await devnet.stop()
}

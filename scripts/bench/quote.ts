/**
 * The quote figures of issue 10, in one run on a private devnet, in-process: quote latency warm and
 * cold; the quote's splits against the best single path and a brute-force optimum; the speed of pricing
 * its candidates from the index against the venues' on-chain quoters; uncached safety verdicts per
 * second; with every devnet venue against the canonical set, and the gain of routing across forks
 * (lib/quote/venues.ts). The parts live in lib/quote/ and share one devnet and one index.
 */
import { benchDevnet } from "./lib/devnet.js"

const devnet = await benchDevnet("quote")
const { quoteBench } = await import("./lib/quote/context.js")
const { quoteLatency } = await import("./lib/quote/latency.js")
const { splitTable } = await import("./lib/quote/splits.js")
const { quoterSpeed } = await import("./lib/quote/quoterSpeed.js")
const { safetyRate } = await import("./lib/quote/safetyRate.js")
const { venueFigures } = await import("./lib/quote/venues.js")
const bench = await quoteBench(devnet.manifest)
try {
  console.log(`   devnet index: ${[...bench.state.pools].length} pools at block ${bench.state.block}`)
  await quoteLatency(bench)
  await venueFigures(bench)
  await splitTable(bench)
  await quoterSpeed(bench)
  console.log("")
  await safetyRate(bench)
} finally {
  await bench.runtime.dispose()
  await devnet.stop()
}

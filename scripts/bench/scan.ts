/**
 * The background safety scan on a private devnet: how long the first scan of the seeded market takes,
 * how long after its pool's liquidity is mined a new token (deployed and paired by a plain viem
 * script, as a user would) carries a verdict in search, and search latency in-process while the scan
 * is simulating against while it is idle (the scan must not slow search).
 */
import { Effect, Schema } from "effect"
import { Deployment } from "../../layers/Deployment.js"
import { SearchRequest } from "../../schema/Search.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { search } from "../../src/operations/search.js"
import { SafetyScan } from "../../src/safety/Scan.js"
import { benchDevnet } from "./lib/devnet.js"
import { newListings } from "./lib/newListing.js"
import { figure, ms, percentile } from "./lib/report.js"
import { indexRuntime } from "./lib/stack.js"

const LATE_TOKENS = 8

const devnet = await benchDevnet("scan")
const { manifest } = devnet
const runtime = indexRuntime(Deployment.make(manifest), { SAFETY_SCAN: "true", INDEXER_POLL_MS: "50" })
const listings = newListings(manifest, 0)

const lookUp = (query: string) =>
  runtime.runPromise(
    Schema.decodeUnknown(SearchRequest)({ query }).pipe(Effect.orDie, Effect.flatMap(search), Effect.either)
  )
const status = () => runtime.runPromise(Effect.flatMap(SafetyScan, (scan) => scan.status))

const QUERIES = ["WETH", "TAX", "HONEY", "ORB", "0x", "EURC", "DEGEN", "nothing"]
/** Search latency, one query after another, while `busy()` holds (at most `max` samples). */
const searchWhile = async (busy: () => Promise<boolean>, max: number) => {
  const samples: Array<number> = []
  while (samples.length < max && (await busy())) {
    for (const query of QUERIES) {
      const t0 = performance.now()
      await lookUp(query)
      samples.push(performance.now() - t0)
      // as requests arriving over a socket would: let the scan's I/O run between them
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return samples.sort((a, b) => a - b)
}

const main = async () => {
  const started = performance.now()
  await runtime.runPromise(Effect.gen(function*() {
    const head = Number(yield* Effect.promise(listings.headBlock))
    yield* (yield* ChainIndex).waitFor(head)
  }))
  const synced = performance.now()
  // The first scan: every seeded token is new.
  let quietSince = performance.now()
  let last = ""
  const scanning = async () => {
    const now = await status()
    const key = JSON.stringify(now)
    if (key !== last || now.waiting > 0) {
      last = key
      quietSince = performance.now()
    }
    return performance.now() - quietSince < 1_000
  }
  const busySamples = await searchWhile(scanning, 50_000)
  const firstScan = await status()
  figure(
    "first scan of the seeded market",
    `${firstScan.measured} tokens measured, ${firstScan.unroutable} without a USDC route, in ${
      ms(quietSince - synced)
    } after the index caught up (${ms(synced - started)} start-up)`
  )
  figure(
    "first scan: tokens judged per second",
    `${
      ((firstScan.measured + firstScan.unroutable) / Math.max(0.001, (quietSince - synced) / 1_000)).toFixed(1)
    }/s (${firstScan.requeued} put back unanswered; at chain scale: npm run bench -- scale)`
  )
  let idleCount = 0
  const idleSamples = await searchWhile(() => Promise.resolve(idleCount++ < 500), 4_000)
  figure(
    "search in-process, scan simulating",
    `p50 ${ms(percentile(busySamples, 50))}, p99 ${ms(percentile(busySamples, 99))} (${busySamples.length})`
  )
  figure(
    "search in-process, scan idle",
    `p50 ${ms(percentile(idleSamples, 50))}, p99 ${ms(percentile(idleSamples, 99))} (${idleSamples.length})`
  )

  await listings.fund(LATE_TOKENS)
  const delays: Array<number> = []
  const blocks: Array<number> = []
  for (let i = 0; i < LATE_TOKENS; i++) {
    const { block, token } = await listings.list(`Bench Late ${i}`, `BLATE${i}`)
    const t0 = performance.now()
    for (;;) {
      const answer = await lookUp(token)
      const safety = answer._tag === "Right" ? answer.right.results[0]?.safety : null
      if (safety != null) {
        delays.push(performance.now() - t0)
        blocks.push(safety.scope.block - Number(block))
        break
      }
      if (performance.now() - t0 > 60_000) throw new Error(`no verdict for ${token} after 60 s`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  delays.sort((a, b) => a - b)
  figure(
    `new token: verdict in search after listing (${LATE_TOKENS})`,
    `p50 ${ms(percentile(delays, 50))}, max ${ms(delays[delays.length - 1]!)}; measured ${Math.min(...blocks)}-${
      Math.max(...blocks)
    } blocks after the listing block`
  )
  await runtime.dispose()
  await devnet.stop()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

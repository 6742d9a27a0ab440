/**
 * The background scan's first pass against a running devnet (`keptDevnet.ts`; its manifest path as the
 * argument): a fresh index catches up, then the scan judges for SCAN_SEC seconds (default 60;
 * SAFETY_SCAN_CONCURRENCY passes through). Every SAMPLE_SEC seconds (default 10) it prints the tokens
 * judged and their rate, and the share of search results that carry a verdict: the same few queries
 * an agent would send, each asking the scan for its results without one, as agents' searches do. With
 * NODE_PID (the node's process id) it adds the node's CPU seconds. Then, unless LATE_TOKEN=false (a
 * devnet others share: no transactions), with the scan still busy with its backlog, a token listed by a
 * plain viem script as a user would, and how long until search shows its verdict. Run it from two
 * builds in turn against the same devnet to compare them (it writes only that token).
 */
import { Effect, Either, HashMap, Schema } from "effect"
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { ChainRpc } from "../../../../layers/ChainRpc.js"
import { Deployment } from "../../../../layers/Deployment.js"
import { RpcHex } from "../../../../schema/Chain.js"
import type { Manifest } from "../../../../schema/Manifest.js"
import { SearchRequest } from "../../../../schema/Search.js"
import { ChainIndex } from "../../../../src/indexer/ChainIndex.js"
import { search } from "../../../../src/operations/search.js"
import { SafetyScan } from "../../../../src/safety/Scan.js"
import { newListings } from "../newListing.js"
import { indexRuntime } from "../stack.js"

const manifest = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Manifest
const SCAN_SEC = Number(process.env["SCAN_SEC"] ?? 60)
const SAMPLE_SEC = Number(process.env["SAMPLE_SEC"] ?? 10)
const NODE_PID = process.env["NODE_PID"]
const LATE_TOKEN = process.env["LATE_TOKEN"] !== "false"
const QUERIES = ["WETH", "USDC", "B4242", "Bench Token 77", "Bench", "0x", "EURC", "nothing"]

const concurrency = process.env["SAFETY_SCAN_CONCURRENCY"]
const runtime = indexRuntime(Deployment.make(manifest), {
  SAFETY_SCAN: "true",
  ...(concurrency === undefined ? {} : { SAFETY_SCAN_CONCURRENCY: concurrency })
})
const status = () => runtime.runPromise(Effect.flatMap(SafetyScan, (scan) => scan.status))
const lookUp = (query: string, limit = 20) =>
  runtime.runPromise(
    Schema.decodeUnknown(SearchRequest)({ query, limit }).pipe(Effect.orDie, Effect.flatMap(search), Effect.either)
  )

const t0 = performance.now()
const state = await runtime.runPromise(Effect.gen(function*() {
  const head = Number(yield* (yield* ChainRpc).read(RpcHex, "eth_blockNumber"))
  return (yield* (yield* ChainIndex).waitFor(head)).state
}))
const tokens = [...HashMap.keys(state.tokens)].length
const synced = performance.now()
console.log(`caught up in ${((synced - t0) / 1000).toFixed(1)} s: ${tokens} tokens`)

/** Results with a verdict over results shown, across the queries (each search asks for the rest). */
const verdictShare = async () => {
  let shown = 0
  let withVerdict = 0
  for (const query of QUERIES) {
    const answer = await lookUp(query)
    if (Either.isLeft(answer)) continue
    shown += answer.right.results.length
    withVerdict += answer.right.results.filter((result) => result.safety != null).length
  }
  return `${withVerdict}/${shown} (${(100 * withVerdict / Math.max(1, shown)).toFixed(0)} %)`
}

/** The node's CPU seconds so far (user + system, from /proc), when its process id is given. */
const nodeCpuSec = () => {
  if (NODE_PID === undefined) return undefined
  const fields = readFileSync(`/proc/${NODE_PID}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const nodeCpuAtSync = nodeCpuSec()
const serviceCpuAtSync = process.cpuUsage()

/** This process's CPU seconds since the index caught up: the service's, the few searches' included. */
const serviceCpuSec = () => {
  const used = process.cpuUsage(serviceCpuAtSync)
  return (used.user + used.system) / 1e6
}

const judgedNow = async () => {
  const now = await status()
  return { judged: now.measured + now.unroutable, requeued: now.requeued, waiting: now.waiting }
}
let mark = synced
while (performance.now() - synced < SCAN_SEC * 1_000) {
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  if (performance.now() - mark >= SAMPLE_SEC * 1_000) {
    mark = performance.now()
    const now = await judgedNow()
    const sec = (mark - synced) / 1_000
    const cpu = nodeCpuSec()
    console.log(
      `  ${sec.toFixed(0)} s: ${now.judged} judged (${(now.judged / sec).toFixed(2)}/s), ${now.requeued} put back ` +
        `unanswered, ${now.waiting} waiting; search results with a verdict ${await verdictShare()}; load ${
          loadavg()[0]!.toFixed(1)
        }; service CPU ${serviceCpuSec().toFixed(1)} s${
          cpu === undefined ? "" : `; node CPU ${(cpu - nodeCpuAtSync!).toFixed(1)} s`
        }`
    )
  }
}
const pass = await judgedNow()
const passSec = (performance.now() - synced) / 1_000
console.log(
  `first pass: ${pass.judged}/${tokens} judged in ${passSec.toFixed(0)} s: ${
    (pass.judged / passSec).toFixed(2)
  }/s; ${pass.requeued} put back unanswered`
)

// A token listed now, behind the backlog: how long until search shows its verdict.
if (LATE_TOKEN) await lateToken()

async function lateToken() {
  const listings = newListings(manifest, 1)
  await listings.fund(1)
  const { token: late } = await listings.list(`Scan Late ${process.pid}`, `SLATE${process.pid}`)
  const listed = performance.now()
  let lateMs: number | undefined
  while (performance.now() - listed < 60_000) {
    const answer = await lookUp(late, 1)
    if (answer._tag === "Right" && answer.right.results[0]?.safety != null) {
      lateMs = performance.now() - listed
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  console.log(
    `new token listed behind the backlog: verdict in search after ${
      lateMs === undefined ? "> 60 s" : `${lateMs.toFixed(0)} ms`
    }`
  )
}

console.log(`search results with a verdict: ${await verdictShare()}`)
await runtime.dispose()

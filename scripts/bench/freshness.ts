/**
 * Answers at the chain's head, measured on a private devnet at Arc's block time (0.5 s) under a steady
 * stream of swaps, with the service composed as it runs (pushed heads, the poll following the block
 * time):
 *
 * - the index's lag behind the node: from the moment this script's own `newHeads` subscription hears
 *   of a block to the moment the index publishes it;
 * - what an operation waits for the head of its arrival (`AtHead.snapshot`: the head read and, when
 *   the index is behind it, the wait);
 * - answers (search and quote, alternately) whose block was behind the head at their arrival: the head
 *   this script had heard of when it sent the call is a lower bound of that head. Side by side, in the
 *   same run, the block of the index as published at the same moments: what an answer read straight
 *   from the index (before answers waited for the head) would have said.
 */
import { Effect, Option, Schedule, Schema, Stream } from "effect"
import { createPublicClient, http } from "viem"
import WebSocket from "ws"
import { Deployment } from "../../layers/Deployment.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { SearchRequest } from "../../schema/Search.js"
import { AtHead } from "../../src/indexer/AtHead.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { search } from "../../src/operations/search.js"
import { quote } from "../../src/quote/Quote.js"
import { benchDevnet } from "./lib/devnet.js"
import { figure, latency, timed } from "./lib/report.js"
import { indexRuntime } from "./lib/stack.js"
import { startSwapStream } from "./lib/swapStream.js"

const SECONDS = Number(process.env["FRESHNESS_SECONDS"] ?? 30)

const devnet = await benchDevnet("freshness", { blockTime: Option.some(0.5) })
const { manifest } = devnet
const runtime = indexRuntime(Deployment.make(manifest))

// This script's own ear on the node: when each block was first heard of.
const heard = new Map<number, number>()
let headHeard = 0
const socket = new WebSocket(manifest.rpcUrl.replace(/^http/, "ws"))
socket.on(
  "open",
  () => socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }))
)
socket.on("message", (raw) => {
  const number = JSON.parse(raw.toString())?.params?.result?.number
  if (typeof number !== "string") return
  const block = Number(number)
  if (!heard.has(block)) heard.set(block, performance.now())
  headHeard = Math.max(headHeard, block)
})

// When the index published each block.
const published = new Map<number, number>()
let indexBlock = 0
runtime.runFork(
  Effect.flatMap(ChainIndex, (index) =>
    index.changes.pipe(
      Stream.runForEach((snapshot) =>
        Effect.sync(() => {
          const block = snapshot.state.block
          indexBlock = block
          if (!published.has(block)) published.set(block, performance.now())
        })
      )
    ))
)

// Ready first: an index still catching up answers 503 by design.
await runtime.runPromise(
  Effect.flatMap(AtHead, (atHead) => atHead.snapshot).pipe(Effect.retry(Schedule.spaced("100 millis")))
)
const swaps = startSwapStream(manifest, [1, 2, 3], 150)
const USDC = manifest.contracts["usdc"]!
const WETH = manifest.tokens?.["WETH"] ?? ""
/** The block an answer names. */
const searchOnce = Schema.decodeUnknown(SearchRequest)({ query: "WETH", limit: 5 }).pipe(
  Effect.orDie,
  Effect.flatMap(search),
  Effect.map((answer) => answer.block)
)
const quoteOnce = Schema.decodeUnknown(QuoteRequest)({ sell: USDC, buy: WETH, amount: "100" }).pipe(
  Effect.orDie,
  Effect.flatMap(quote),
  Effect.map((answer) => answer.block)
)
const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 40))

const node = createPublicClient({ transport: http(manifest.rpcUrl), cacheTime: 0 })
const roundTrips: Array<number> = []
const waits: Array<number> = []
const calls = { answered: 0, behind: 0, refused: 0, publishedBehind: 0 }
const until = performance.now() + SECONDS * 1_000
const firstBlock = headHeard
for (let call = 0; performance.now() < until; call++) {
  // Baseline: one plain request to the node, the least any read of the head can cost.
  roundTrips.push(await timed(() => node.request({ method: "eth_blockNumber" })))
  waits.push(await timed(() => runtime.runPromise(Effect.flatMap(AtHead, (atHead) => atHead.snapshot))))
  await pause()
  const arrivalHead = headHeard
  if (indexBlock < arrivalHead) calls.publishedBehind++
  const answer = await (call % 2 === 0
    ? runtime.runPromise(Effect.either(searchOnce))
    : runtime.runPromise(Effect.either(quoteOnce)))
  if (answer._tag === "Left") calls.refused++
  else if (answer.right < arrivalHead) calls.behind++
  else calls.answered++
  await pause()
}
await swaps.stop()
socket.close()

const lags = [...published].flatMap(([block, at]) => {
  const first = heard.get(block)
  return block > firstBlock && first !== undefined ? [Math.max(0, at - first)] : []
})
figure("blocks (0.5 s apart)", `${lags.length}, with ${swaps.sent()} swaps in ${SECONDS} s`)
latency("baseline: one eth_blockNumber round trip", roundTrips)
latency("index lag behind the node's head", lags)
latency("an operation's wait for its arrival head", waits)
figure("answers behind the head at arrival", `${calls.behind} of ${calls.answered + calls.behind + calls.refused}`)
figure("answers refused (503 rpc_unavailable)", `${calls.refused}`)
figure(
  "index as published, behind the head then",
  `${calls.publishedBehind} of ${calls.answered + calls.behind + calls.refused}`
)

await runtime.dispose()
await devnet.stop()

/**
 * Search latency over a generated market of 50,000 tokens (each in a v2 pool, a hundred of them on the
 * token list): the full `search` operation through its service, as an HTTP handler would call it,
 * on a mix of exact tickers, names, prefixes, addresses and misses. The chain does not stand still
 * meanwhile: every 200 queries a new block with 20 swaps is published, so per-snapshot caches start
 * cold again as they would on Arc (two blocks a second at 400 queries a second).
 * Also what a search view costs to build: cold (startup, rollback) and for a new block.
 * The queries run twice: with an empty verdict book, and with three route verdicts for every token (as
 * after the background safety scan has measured the whole market): the book must not slow search.
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, HashMap, Layer, ManagedRuntime } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment } from "../../layers/Deployment.js"
import { type Hex, lowerHex, USDC_ADDRESS } from "../../schema/Chain.js"
import type { SafetyVerdict } from "../../schema/Token.js"
import { applyEvents } from "../../src/indexer/Apply.js"
import { AtHead } from "../../src/indexer/AtHead.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import type { ChainEvent } from "../../src/indexer/Events.js"
import type { IndexState } from "../../src/indexer/State.js"
import { search } from "../../src/operations/search.js"
import { StateChanges } from "../../src/safety/StateChanges.js"
import { VerdictBook } from "../../src/safety/VerdictBook.js"
import { TokenSearch } from "../../src/search/TokenSearch.js"
import { bookOf } from "../../src/search/Verification.js"
import { makeView, viewBasis } from "../../src/search/View.js"
import { offlineVenueFile } from "../../test/support/http.js"
import { replay } from "./lib/replay.js"
import { figure, ms, percentile } from "./lib/report.js"
import { random, sources, syntheticMarket } from "./lib/synthetic.js"

const TOKENS = 50_000
const QUERIES = 20_000
const QUERIES_PER_BLOCK = 200
const SWAPS_PER_BLOCK = 20

const market = syntheticMarket({ pools: TOKENS, swapsPerPool: 1, poolsPerBlock: 25 })
const state = replay(market, 2_000)
const tokenList = {
  name: "Bench List",
  timestamp: "2026-01-01T00:00:00.000Z",
  version: { major: 1, minor: 0, patch: 0 },
  tokens: market.tokens.slice(0, 100).map((t) => ({
    chainId: 5042,
    address: t.address,
    symbol: t.symbol,
    name: t.name,
    decimals: 18
  }))
}
const snapshot = { state, head: state.block, headTime: state.time, catchingUp: false, epoch: 0 }
const poolIds = [...HashMap.keys(state.pools)]

/** The next block: `SWAPS_PER_BLOCK` random v2 pools get new reserves. */
const nextBlock = (previous: IndexState, pick: () => number): IndexState => {
  const block = previous.block + 1
  const events: Array<ChainEvent> = []
  for (let i = 0; i < SWAPS_PER_BLOCK; i++) {
    const id = poolIds[Math.floor(pick() * poolIds.length)]!
    const pool = HashMap.unsafeGet(previous.pools, id)
    if (pool.kind !== "v2") continue
    const at = { block, time: previous.time + 1, tx: lowerHex(`0x${block}${i}`), logIndex: i }
    events.push({
      _tag: "V2Sync",
      at,
      emitter: id,
      reserve0: (pool.reserve0 * 1_001n) / 1_000n,
      reserve1: (pool.reserve1 * 999n) / 1_000n
    })
  }
  return applyEvents(previous, events, {
    number: block,
    hash: lowerHex(`0x${block.toString(16)}`),
    time: previous.time + 1
  }, {
    sources,
    metadata: new Map(),
    senders: new Map(),
    pairFees: new Map(),
    tradesSince: 0
  })
}

const deployment = Layer.succeed(Deployment, {
  rpcUrl: "http://unused",
  chainId: 5042,
  startBlock: 1,
  contracts: { usdc: USDC_ADDRESS },
  tokenList,
  // The benchmark publishes its pools directly: no venue contract is ever read.
  venues: offlineVenueFile
})
const runtime = ManagedRuntime.make(
  Layer.mergeAll(TokenSearch.Default, VerdictBook.Default).pipe(
    // The benchmark publishes its own snapshots: answers are for them, with no chain head to wait for.
    Layer.provideMerge(Layer.merge(AtHead.layerPublished, StateChanges.layerUnknowable)),
    Layer.provideMerge(ChainIndex.Default),
    Layer.provide(deployment),
    Layer.provide(AppConfig.Default),
    Layer.provide(NodeContext.layer)
  )
)

/** A verdict as the scan records it (a taxed token, so the tax flags are computed too). */
const benchVerdict = (token: Hex, route: number, block: number): SafetyVerdict => ({
  routeId: `${USDC_ADDRESS}>${token}|uniswap-v2:${route}`,
  route: { venue: "uniswap-v2", poolId: `0x${route}`, pair: "TOKEN/USDC" },
  verdict: "taxed",
  canSell: true,
  buyTaxBps: 100,
  sellTaxBps: 200,
  buyImpactBps: 5,
  roundTripLossBps: 310,
  scope: { block, walletProfile: "fresh_eoa" }
})

const main = async () => {
  const book = bookOf(tokenList, 5042, "bench", new Date().toISOString())
  const basis = viewBasis(book, USDC_ADDRESS)
  let started = performance.now()
  const cold = makeView(snapshot, basis, undefined)
  figure("search view, cold (catalog build)", ms(performance.now() - started))
  started = performance.now()
  makeView({ ...snapshot, state: nextBlock(state, random(1)) }, basis, cold)
  figure("search view, next block (apply + view)", ms(performance.now() - started))

  await runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.publish(snapshot)))
  await runtime.runPromise(Effect.flatMap(TokenSearch, (tokens) => tokens.view))

  const next = random(7)
  const pick = () => market.tokens[Math.floor(next() * market.tokens.length)]!
  const kinds = ["symbol", "name", "prefix", "address", "miss"] as const
  const queries = Array.from({ length: QUERIES }, () => {
    const roll = next()
    const token = pick()
    if (roll < 0.4) return ["symbol", token.symbol] as const
    if (roll < 0.6) return ["name", token.name] as const
    if (roll < 0.8) return ["prefix", token.name.slice(0, 3 + Math.floor(next() * 3))] as const
    if (roll < 0.9) return ["address", token.address] as const
    return ["miss", `nothing${Math.floor(next() * 1e9)}`] as const
  })
  // warm-up: the JIT, and the per-snapshot memo of assessed tokens as traffic would fill it
  // Every answer must be an answer or token_not_found: a benchmark of failures measures nothing.
  const check = (query: string) => {
    const exit = runtime.runSyncExit(search({ query, limit: 10 }))
    if (exit._tag === "Failure" && !String(exit.cause).includes("TokenNotFound")) {
      throw new Error(`search "${query}" failed: ${exit.cause}`)
    }
  }
  for (const [, query] of queries.slice(0, 2_000)) check(query)

  /** The queries over fresh blocks, timed one by one. */
  const timeQueries = async (label: string) => {
    const timings = new Map<string, Array<number>>(kinds.map((kind) => [kind, []]))
    const all: Array<number> = []
    let current = state
    const chainPick = random(99)
    for (const [n, [kind, query]] of queries.entries()) {
      if (n % QUERIES_PER_BLOCK === 0) {
        current = nextBlock(current, chainPick)
        const published = { ...snapshot, state: current, head: current.block }
        await runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.publish(published)))
        // lets the warm-up fiber build the view, as it would between blocks
        await new Promise((resolve) => setImmediate(resolve))
      }
      const t0 = performance.now()
      const exit = runtime.runSyncExit(search({ query, limit: 10 }))
      const elapsed = performance.now() - t0
      if (exit._tag === "Failure" && kind !== "miss") throw new Error(`search "${query}" failed: ${exit.cause}`)
      all.push(elapsed)
      timings.get(kind)!.push(elapsed)
    }
    all.sort((a, b) => a - b)
    figure(
      `search, ${TOKENS.toLocaleString("en")} tokens, ${QUERIES.toLocaleString("en")} queries, ${
        QUERIES / QUERIES_PER_BLOCK
      } blocks, ${label}`,
      `p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}`
    )
    for (const kind of kinds) {
      const sorted = timings.get(kind)!.sort((a, b) => a - b)
      figure(`  ${kind} (${sorted.length})`, `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}`)
    }
  }
  await timeQueries("no verdicts")
  await runtime.runPromise(
    Effect.flatMap(VerdictBook, (book) =>
      Effect.forEach(market.tokens, (token) =>
        book.scanned(
          token.address,
          [0, 1, 2].map((route) => benchVerdict(token.address, route, state.block)),
          0
        ), {
        discard: true
      }))
  )
  await timeQueries(`${TOKENS.toLocaleString("en")} tokens with 3 route verdicts each`)
  await runtime.dispose()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

/**
 * One size of the scale benchmark: the service's index started fresh on the devnet as it stands, then
 * timed. Latencies with the background scan off (a quiet node, as every latency benchmark here); the
 * scan's coverage in a second runtime with it on, after the first is gone.
 */
import { Effect, Either, Fiber, HashMap, Schema } from "effect"
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"
import { ChainRpc } from "../../../../layers/ChainRpc.js"
import { Deployment } from "../../../../layers/Deployment.js"
import { RpcHex } from "../../../../schema/Chain.js"
import type { Manifest } from "../../../../schema/Manifest.js"
import { QuoteRequest } from "../../../../schema/QuoteRequest.js"
import { SearchRequest } from "../../../../schema/Search.js"
import { ChainIndex } from "../../../../src/indexer/ChainIndex.js"
import { Checkpoint, fingerprintOf } from "../../../../src/indexer/Checkpoint.js"
import { Indexer } from "../../../../src/indexer/Indexer.js"
import type { IndexState } from "../../../../src/indexer/State.js"
import { search } from "../../../../src/operations/search.js"
import { quote } from "../../../../src/quote/Quote.js"
import { SafetyScan } from "../../../../src/safety/Scan.js"
import { heapMb, percentile } from "../report.js"
import { indexRuntime } from "../stack.js"

export interface PhaseFigures {
  readonly pools: number
  readonly tokens: number
  readonly catchUpMs: number
  readonly rssMb: number
  readonly heapMb: number
  readonly warm: { readonly p50: number; readonly p99: number }
  readonly cold: { readonly p50: number; readonly p99: number }
  readonly searchP50: number
  /** Garbage collection while the warm quotes ran: pauses, the longest, and how many were full collections. */
  readonly warmGc: { readonly totalMs: number; readonly maxMs: number; readonly major: number }
  /** How late the event loop ran a timer while the warm quotes ran (`monitorEventLoopDelay`, 10 ms resolution). */
  readonly warmLoopDelay: { readonly p99: number; readonly max: number }
  /**
   * Warm quotes while the index's checkpoint is written back to back: the service writes one every
   * `CHECKPOINT_INTERVAL_SEC` (30 s), so a share of its answers always meet one. Figures, the checkpoints
   * written meanwhile and the longest wait of the loop.
   */
  readonly warmCheckpointing: {
    readonly p50: number
    readonly p99: number
    readonly max: number
    readonly checkpoints: number
    readonly loopMaxMs: number
  }
  readonly rpcErrors: number
  /** The distinct refusals (tag, message, hint), for the reader to see what failed. */
  readonly errorKinds: ReadonlyArray<string>
  readonly scan: { readonly judged: number; readonly perSec: number; readonly shownWithVerdict: number }
}

const WARM = 500
const COLD = 40
const SEARCHES = 300

const sortedOf = (samples: Array<number>) => samples.sort((a, b) => a - b)
const p = (samples: Array<number>) => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) })

/** Starts a runtime on a fresh data directory and times its catch-up to the chain's head. */
const started = async (manifest: Manifest, settings: Record<string, string>) => {
  const runtime = indexRuntime(Deployment.make(manifest), settings)
  const t0 = performance.now()
  const state = await runtime.runPromise(Effect.gen(function*() {
    const head = Number(yield* (yield* ChainRpc).read(RpcHex, "eth_blockNumber"))
    return (yield* (yield* ChainIndex).waitFor(head)).state
  }))
  return { runtime, state, catchUpMs: performance.now() - t0 }
}

/** `WARM` runs of `timed` while a fiber of `runtime` writes checkpoints of `state` one after another. */
const whileCheckpointing = async (
  runtime: Awaited<ReturnType<typeof started>>["runtime"],
  manifest: Manifest,
  state: IndexState,
  timed: () => Promise<number>
) => {
  let checkpoints = 0
  const fingerprint = fingerprintOf(Deployment.make(manifest))
  const writer = runtime.runFork(
    Effect.flatMap(Checkpoint, (checkpoint) => checkpoint.save(state, fingerprint)).pipe(
      Effect.tap(() => checkpoints++),
      Effect.forever,
      Effect.provide(Checkpoint.Default)
    )
  )
  // Past the first checkpoint's start: the writer's set-up is not the write.
  await new Promise((resolve) => setTimeout(resolve, 50))
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  const samples: Array<number> = []
  for (let i = 0; i < WARM; i++) samples.push(await timed())
  loop.disable()
  await runtime.runPromise(Fiber.interrupt(writer))
  const sorted = sortedOf(samples)
  return { ...p(sorted), max: sorted.at(-1)!, checkpoints, loopMaxMs: loop.max / 1e6 }
}

/** The latency figures of one size, on a runtime started fresh (no background scan). */
export const latencies = async (manifest: Manifest, queries: ReadonlyArray<string>) => {
  const token = (label: string) => manifest.tokens![label]!
  const quiet = await started(manifest, { SAFETY_SCAN: "false" })
  const { runtime } = quiet
  let rpcErrors = 0
  const errorKinds = new Set<string>()
  const timedCall = async <A>(
    run: () => Promise<Either.Either<A, { _tag: string; message?: string; hint?: string | undefined }>>
  ) => {
    const t0 = performance.now()
    const outcome = await run()
    if (Either.isLeft(outcome)) {
      // Every refusal is named: a latency row over refusals is not a latency figure.
      if (outcome.left._tag === "RpcUnavailable") rpcErrors++
      errorKinds.add(`${outcome.left._tag} ${outcome.left.message ?? ""}: ${outcome.left.hint ?? ""}`)
    }
    return performance.now() - t0
  }
  const ask = (amount: string) => () =>
    runtime.runPromise(
      Schema.decodeUnknown(QuoteRequest)({ sell: token("USDC"), buy: token("WETH"), amount }).pipe(
        Effect.orDie,
        Effect.flatMap(quote),
        Effect.either
      )
    )
  const lookUp = (query: string) => () =>
    runtime.runPromise(
      Schema.decodeUnknown(SearchRequest)({ query }).pipe(Effect.orDie, Effect.flatMap(search), Effect.either)
    )
  for (let i = 0; i < 50; i++) await timedCall(ask("2500"))
  const warm: Array<number> = []
  const pauses: Array<{ readonly ms: number; readonly major: boolean }> = []
  const gcWatch = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind
      pauses.push({ ms: entry.duration, major: kind === constants.NODE_PERFORMANCE_GC_MAJOR })
    }
  })
  gcWatch.observe({ entryTypes: ["gc"] })
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  for (let i = 0; i < WARM; i++) warm.push(await timedCall(ask("2500")))
  loop.disable()
  gcWatch.disconnect()
  const checkpointing = await whileCheckpointing(runtime, manifest, quiet.state, () => timedCall(ask("2500")))
  const cold: Array<number> = []
  for (let i = 0; i < COLD; i++) cold.push(await timedCall(ask(`${2_500 + i + 1}.25`)))
  const searches: Array<number> = []
  for (let i = 0; i < SEARCHES; i++) searches.push(await timedCall(lookUp(queries[i % queries.length]!)))
  const failures = (await runtime.runPromise(Effect.flatMap(Indexer, (indexer) => indexer.progress))).failures
  const heap = heapMb()
  const rssMb = process.memoryUsage().rss / 2 ** 20
  await runtime.dispose()
  return {
    pools: [...HashMap.keys(quiet.state.pools)].length,
    catchUpMs: quiet.catchUpMs,
    rssMb,
    heapMb: heap,
    warm: p(sortedOf(warm)),
    cold: p(sortedOf(cold)),
    searchP50: percentile(sortedOf(searches), 50),
    warmGc: {
      totalMs: pauses.reduce((sum, pause) => sum + pause.ms, 0),
      maxMs: Math.max(0, ...pauses.map((pause) => pause.ms)),
      major: pauses.filter((pause) => pause.major).length
    },
    warmLoopDelay: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    warmCheckpointing: checkpointing,
    rpcErrors: rpcErrors + failures,
    errorKinds: [...errorKinds]
  }
}

export const phase = async (manifest: Manifest, scanSeconds: number, queries: ReadonlyArray<string>) => {
  const timed = await latencies(manifest, queries)
  const scanned = await started(manifest, { SAFETY_SCAN: "true" })
  const t0 = performance.now()
  const status = () => scanned.runtime.runPromise(Effect.flatMap(SafetyScan, (scan) => scan.status))
  const tokens = [...HashMap.keys(scanned.state.tokens)].length
  let judged = 0
  while (performance.now() - t0 < scanSeconds * 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const now = await status()
    judged = now.measured + now.unroutable
    if (now.waiting === 0 && judged >= tokens - 1) break
  }
  const perSec = judged / ((performance.now() - t0) / 1_000)
  let shown = 0
  let withVerdict = 0
  for (const query of queries) {
    const answer = await scanned.runtime.runPromise(
      Schema.decodeUnknown(SearchRequest)({ query, limit: 20 }).pipe(
        Effect.orDie,
        Effect.flatMap(search),
        Effect.either
      )
    )
    if (Either.isLeft(answer)) continue
    shown += answer.right.results.length
    withVerdict += answer.right.results.filter((result) => result.safety != null).length
  }
  await scanned.runtime.dispose()
  return {
    ...timed,
    tokens,
    scan: { judged, perSec, shownWithVerdict: shown === 0 ? 0 : withVerdict / shown }
  } satisfies PhaseFigures
}

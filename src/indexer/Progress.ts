/**
 * How far the indexer is: the head it is working towards, the indexed block, log throughput, and when
 * the index last reflected the chain's head. Read by `/health` and the freshness rule of answers
 * (./Freshness.ts); the indexer also logs a progress line from it while it catches up.
 *
 * `syncedAt` is the time of the newest head observation (./ChainHead.ts) the index had reached when it
 * applied a block: on an idle chain every poll renews it (Freshness reads the latest observation too),
 * and when the chain stops answering it stops moving.
 */
import { Clock, Effect, Ref } from "effect"
import { indexBlock, indexHead, indexLag } from "../../layers/metrics/Metrics.js"
import type { ObservedHead } from "./ChainHead.js"

export interface IndexerProgress {
  /** The head the indexer is working towards; null before its first. */
  readonly head: number | null
  readonly indexed: number
  /** Logs applied per second over the last ten seconds of work. */
  readonly logsPerSec: number
  /** Logs applied since this process started. */
  readonly logsApplied: number
  readonly catchingUp: boolean
  /** Block of the checkpoint this process resumed from; null when it started from the start block. */
  readonly resumedFrom: number | null
  /** First block this process fetched. */
  readonly firstFetched: number | null
  readonly rollbacks: number
  readonly lastError: string | null
  /** Times the stream failed and resumed since this process started (each a read that kept failing). */
  readonly failures: number
  /** When (ms) the index last reflected the chain's head; null until it first has. */
  readonly syncedAt: number | null
}

interface Sample {
  readonly at: number
  readonly logs: number
}

const WINDOW_MS = 10_000

/** `syncedAt` once the index stands at `indexed` while `observed` is the newest head seen. */
const syncedAfter = (p: IndexerProgress, indexed: number, observed: ObservedHead | undefined) =>
  observed !== undefined && indexed >= observed.header.number ? Math.max(p.syncedAt ?? 0, observed.at) : p.syncedAt

/** The index's head, block and lag as gauges, set wherever the progress moves. */
const gauged = (p: IndexerProgress) =>
  Effect.sync(() => {
    indexBlock.unsafeUpdate(p.indexed, [])
    if (p.head === null) return
    indexHead.unsafeUpdate(p.head, [])
    indexLag.unsafeUpdate(Math.max(0, p.head - p.indexed), [])
  })

export const makeProgress = (indexed: number, resumedFrom: number | null) =>
  Effect.gen(function*() {
    const state = yield* Ref.make<IndexerProgress>({
      head: null,
      indexed,
      logsPerSec: 0,
      logsApplied: 0,
      catchingUp: true,
      resumedFrom,
      firstFetched: null,
      rollbacks: 0,
      lastError: null,
      failures: 0,
      syncedAt: null
    })
    const samples = yield* Ref.make<ReadonlyArray<Sample>>([])

    const rate = (kept: ReadonlyArray<Sample>, now: number): number => {
      if (kept.length === 0) return 0
      const logs = kept.reduce((sum, sample) => sum + sample.logs, 0)
      const span = Math.max(1_000, now - kept[0]!.at)
      return Math.round((logs * 1_000) / span)
    }

    return {
      get: Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const kept = (yield* Ref.get(samples)).filter((sample) => now - sample.at <= WINDOW_MS)
        const progress = yield* Ref.get(state)
        return { ...progress, logsPerSec: rate(kept, now) }
      }),
      head: (head: number, window: number) =>
        Effect.flatMap(Ref.updateAndGet(state, (p) => ({ ...p, head, catchingUp: head - p.indexed > window })), gauged),
      /** `indexed` applied with `logs` logs, while `observed` was the newest head seen. */
      applied: (indexed: number, logs: number, window: number, observed: ObservedHead | undefined) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* Ref.update(samples, (all) => [
            ...all.filter((sample) => now - sample.at <= WINDOW_MS),
            { at: now, logs }
          ])
          yield* Effect.flatMap(
            Ref.updateAndGet(state, (p) => ({
              ...p,
              indexed,
              logsApplied: p.logsApplied + logs,
              catchingUp: p.head === null || p.head - indexed > window,
              lastError: null,
              syncedAt: syncedAfter(p, indexed, observed)
            })),
            gauged
          )
        }),
      /**
       * The index found already at `observed` with nothing to apply (a restart from a checkpoint at the
       * head): that is a sync as much as an applied block, or a block that comes next would find the
       * index "never at the head" and refuse answers until it is applied.
       */
      reached: (observed: ObservedHead | undefined) =>
        Ref.update(state, (p) => ({ ...p, syncedAt: syncedAfter(p, p.indexed, observed) })),
      fetched: (from: number) => Ref.update(state, (p) => ({ ...p, firstFetched: p.firstFetched ?? from })),
      rolledBack: (indexed: number) =>
        Effect.flatMap(Ref.updateAndGet(state, (p) => ({ ...p, indexed, rollbacks: p.rollbacks + 1 })), gauged),
      failed: (message: string) => Ref.update(state, (p) => ({ ...p, lastError: message, failures: p.failures + 1 }))
    }
  })

export type ProgressTracker = Effect.Effect.Success<ReturnType<typeof makeProgress>>

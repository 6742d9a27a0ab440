/**
 * How far the indexer is: chain head, indexed block, lag, log throughput. Read by `/health`; the
 * indexer also logs a progress line from it while it catches up.
 */
import { Clock, Effect, Ref } from "effect"

export interface IndexerProgress {
  readonly head: number | null
  readonly indexed: number
  readonly lag: number | null
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
}

interface Sample {
  readonly at: number
  readonly logs: number
}

const WINDOW_MS = 10_000

export const makeProgress = (indexed: number, resumedFrom: number | null) =>
  Effect.gen(function*() {
    const state = yield* Ref.make<IndexerProgress>({
      head: null,
      indexed,
      lag: null,
      logsPerSec: 0,
      logsApplied: 0,
      catchingUp: true,
      resumedFrom,
      firstFetched: null,
      rollbacks: 0,
      lastError: null
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
        Ref.update(
          state,
          (p) => ({ ...p, head, lag: Math.max(0, head - p.indexed), catchingUp: head - p.indexed > window })
        ),
      applied: (indexed: number, logs: number, window: number) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* Ref.update(samples, (all) => [
            ...all.filter((sample) => now - sample.at <= WINDOW_MS),
            { at: now, logs }
          ])
          yield* Ref.update(state, (p) => {
            const lag = p.head === null ? null : Math.max(0, p.head - indexed)
            return {
              ...p,
              indexed,
              lag,
              logsApplied: p.logsApplied + logs,
              catchingUp: lag === null || lag > window,
              lastError: null
            }
          })
        }),
      fetched: (from: number) => Ref.update(state, (p) => ({ ...p, firstFetched: p.firstFetched ?? from })),
      rolledBack: (indexed: number) => Ref.update(state, (p) => ({ ...p, indexed, rollbacks: p.rollbacks + 1 })),
      failed: (message: string) => Ref.update(state, (p) => ({ ...p, lastError: message }))
    }
  })

export type ProgressTracker = Effect.Effect.Success<ReturnType<typeof makeProgress>>

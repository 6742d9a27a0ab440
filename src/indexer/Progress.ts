/**
 * How far the indexer is: chain head, indexed block, lag, log throughput, and how current the index
 * is. Read by `/health` and by the freshness gate of answers; the indexer also logs a progress line
 * from it while it catches up.
 *
 * The head poll doubles as the RPC probe: each poll records whether the chain answered and how fast,
 * so reading health never calls the chain. `syncedAt` is the time of the newest head observation the
 * index had reached: on a live chain it trails the clock by a poll interval, on an idle chain (no new
 * blocks) every poll renews it, and when the chain stops answering it stops moving.
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
  /** The last head poll: when (ms), whether it answered, how fast, and the head it saw. */
  readonly probe: Probe | null
  /** When (ms) the index last reflected the chain's head; null until it first has. */
  readonly syncedAt: number | null
}

export interface Probe {
  readonly at: number
  readonly ok: boolean
  readonly latencyMs: number | null
  readonly block: number | null
  readonly error: string | null
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
      lastError: null,
      probe: null,
      syncedAt: null
    })
    const samples = yield* Ref.make<ReadonlyArray<Sample>>([])
    // The newest head seen by a poll and when: reaching it later makes the index current as of then.
    const observed = yield* Ref.make<{ readonly block: number; readonly at: number } | null>(null)

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
          const seen = yield* Ref.get(observed)
          yield* Ref.update(state, (p) => {
            const lag = p.head === null ? null : Math.max(0, p.head - indexed)
            return {
              ...p,
              indexed,
              lag,
              logsApplied: p.logsApplied + logs,
              catchingUp: lag === null || lag > window,
              lastError: null,
              syncedAt: seen !== null && indexed >= seen.block ? Math.max(p.syncedAt ?? 0, seen.at) : p.syncedAt
            }
          })
        }),
      /** A head poll answered with `block` after `latencyMs`. */
      probed: (block: number, latencyMs: number) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* Ref.set(observed, { block, at: now })
          yield* Ref.update(state, (p) => ({
            ...p,
            probe: { at: now, ok: true, latencyMs, block, error: null },
            syncedAt: p.indexed >= block ? now : p.syncedAt
          }))
        }),
      /** A head poll failed: the chain did not answer. */
      probeFailed: (error: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.update(state, (p) => ({
            ...p,
            probe: { at: now, ok: false, latencyMs: null, block: p.probe?.block ?? null, error }
          }))),
      fetched: (from: number) => Ref.update(state, (p) => ({ ...p, firstFetched: p.firstFetched ?? from })),
      rolledBack: (indexed: number) => Ref.update(state, (p) => ({ ...p, indexed, rollbacks: p.rollbacks + 1 })),
      failed: (message: string) => Ref.update(state, (p) => ({ ...p, lastError: message }))
    }
  })

export type ProgressTracker = Effect.Effect.Success<ReturnType<typeof makeProgress>>

/**
 * Whether the service can give current answers, decided once for `/health` and for every operation
 * that answers from the index or needs the current block, so the two always agree.
 *
 * - `ok`: the index reflected the chain's head less than `INDEX_MAX_AGE_SEC` (5) seconds ago, and
 *   the last probe answered with the index within 10 blocks of it.
 * - `degraded`: still answering, but the last probe failed (a blip, within the age bound) or the index
 *   trails the head by more than 10 blocks while following it.
 * - `down`: cannot answer current data: the index is older than the bound (the chain stopped
 *   answering), has never reached the head since start, or is catching up from far behind. Health
 *   answers 503, and operations answer 503 `rpc_unavailable` with `retryAfterSec`.
 */
import { Clock, Effect, Option } from "effect"
import { RpcUnavailable } from "../../schema/Errors.js"
import { Indexer } from "./Indexer.js"
import type { IndexerProgress } from "./Progress.js"

/** Lag beyond which answers are too old to trust for pricing: 5 s of Arc's half-second blocks. */
export const MAX_HEALTHY_LAG_BLOCKS = 10

export interface Freshness {
  readonly status: "ok" | "degraded" | "down"
  /** Why the status is not `ok`; null when it is. */
  readonly reason: string | null
  /** Seconds since the index last reflected the chain's head; null until it first has. */
  readonly indexAgeSec: number | null
}

const seconds = (ms: number) => Math.round(ms / 100) / 10

export const freshnessOf = (progress: IndexerProgress, now: number, maxAgeSec: number): Freshness => {
  const indexAgeSec = progress.syncedAt === null ? null : seconds(Math.max(0, now - progress.syncedAt))
  const probe = progress.probe
  const rpcFailure = probe !== null && !probe.ok ? `chain RPC not answering (${probe.error})` : null
  const down = (reason: string): Freshness => ({ status: "down", reason, indexAgeSec })
  if (progress.catchingUp && progress.head !== null) {
    return down(`index catching up: block ${progress.indexed} of ${progress.head}`)
  }
  if (indexAgeSec === null) return down(rpcFailure ?? "index has not reached the chain head yet")
  if (indexAgeSec > maxAgeSec) {
    return down(`index is ${indexAgeSec} s old${rpcFailure === null ? "" : `: ${rpcFailure}`}`)
  }
  if (rpcFailure !== null) return { status: "degraded", reason: rpcFailure, indexAgeSec }
  if (progress.lag !== null && progress.lag > MAX_HEALTHY_LAG_BLOCKS) {
    return { status: "degraded", reason: `index ${progress.lag} blocks behind the head`, indexAgeSec }
  }
  return { status: "ok", reason: null, indexAgeSec }
}

/** The freshness now, from the indexer's progress: no chain call. */
export const currentFreshness = Effect.gen(function*() {
  const indexer = yield* Indexer
  const progress = yield* indexer.progress
  const now = yield* Clock.currentTimeMillis
  const maxAgeSec = indexer.settings.maxAgeSec
  return { progress, maxAgeSec, freshness: freshnessOf(progress, now, maxAgeSec) }
})

/**
 * Fails with `rpc_unavailable` when the service cannot give current answers (health says `down`).
 * Only an indexer knows how current its index is: a program that publishes snapshots itself (a test,
 * a benchmark, an embedder with its own feed) runs no `Indexer` and answers for its own data.
 */
export const requireCurrentIndex = Effect.flatMap(
  Effect.serviceOption(Indexer),
  (indexer) =>
    Option.isNone(indexer) ? Effect.void : Effect.flatMap(
      Effect.provideService(currentFreshness, Indexer, indexer.value),
      ({ freshness }) =>
        freshness.status === "down"
          ? Effect.fail(
            new RpcUnavailable({
              message: "the service cannot answer from a current view of the chain",
              hint: freshness.reason ?? "the index is not current"
            })
          )
          : Effect.void
    )
)

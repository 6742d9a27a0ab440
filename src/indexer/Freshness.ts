/**
 * Whether the service can give current answers, decided once for `/health` and for every operation
 * (./AtHead.ts), so the two always agree.
 *
 * - `ok`: the index reflected the chain's head less than `INDEX_MAX_AGE_SEC` (5) seconds ago, trails
 *   the newest head seen by at most `HEALTH_MAX_LAG_BLOCKS` blocks and for at most `HEALTH_MAX_LAG_MS`,
 *   and the last poll answered.
 * - `degraded`: still answering (each answer waits for the index to reach the head of its arrival),
 *   but the last poll failed (a blip, within the age bound) or the index trails the head by more than
 *   the lag bounds.
 * - `down`: cannot answer current data: the index is older than the bound (the chain stopped
 *   answering), has never reached the head since start, or is catching up from far behind. Health
 *   answers 503, and operations answer 503 `rpc_unavailable` with `retryAfterSec`.
 */
import { Clock, Effect, Option } from "effect"
import { ChainHead, type ObservedHead, type Probe } from "./ChainHead.js"
import { Indexer } from "./Indexer.js"
import type { IndexerProgress } from "./Progress.js"

export interface FreshnessBounds {
  readonly maxAgeSec: number
  readonly maxLagBlocks: number
  readonly maxLagMillis: number
}

export interface Freshness {
  readonly status: "ok" | "degraded" | "down"
  /** Why the status is not `ok`; null when it is. */
  readonly reason: string | null
  /** Seconds since the index last reflected the chain's head; null until it first has. */
  readonly indexAgeSec: number | null
  /** The newest head seen (pushed, polled or asked); null before the first. */
  readonly head: ObservedHead | null
  /** Blocks the index trails that head by; null before the first head. */
  readonly lagBlocks: number | null
  /** How long the index has trailed it (ms): since the first head above the index was seen. */
  readonly lagMs: number
}

export interface FreshnessInput {
  readonly progress: IndexerProgress
  readonly head: ObservedHead | null
  readonly probe: Probe | null
  readonly aheadSince: number | null
  readonly now: number
}

const seconds = (ms: number) => Math.round(ms / 100) / 10

export const freshnessOf = (input: FreshnessInput, bounds: FreshnessBounds): Freshness => {
  const { head, now, probe, progress } = input
  const reached = head !== null && progress.indexed >= head.header.number
  const syncedAt = reached ? Math.max(head.at, progress.syncedAt ?? 0) : progress.syncedAt
  const indexAgeSec = syncedAt === null ? null : seconds(Math.max(0, now - syncedAt))
  const lagBlocks = head === null ? null : Math.max(0, head.header.number - progress.indexed)
  const lagMs = reached || input.aheadSince === null ? 0 : Math.max(0, now - input.aheadSince)
  const facts = { indexAgeSec, head, lagBlocks, lagMs }
  const rpcFailure = probe !== null && !probe.ok ? `chain RPC not answering (${probe.error})` : null
  const down = (reason: string): Freshness => ({ status: "down", reason, ...facts })
  const degraded = (reason: string): Freshness => ({ status: "degraded", reason, ...facts })
  if (progress.catchingUp && progress.head !== null) {
    return down(`index catching up: block ${progress.indexed} of ${progress.head}`)
  }
  if (indexAgeSec === null) return down(rpcFailure ?? "index has not reached the chain head yet")
  if (indexAgeSec > bounds.maxAgeSec) {
    return down(`index is ${indexAgeSec} s old${rpcFailure === null ? "" : `: ${rpcFailure}`}`)
  }
  if (rpcFailure !== null) return degraded(rpcFailure)
  if (lagBlocks !== null && lagBlocks > bounds.maxLagBlocks) {
    return degraded(`index ${lagBlocks} blocks behind the head`)
  }
  if (lagMs > bounds.maxLagMillis) return degraded(`index behind the head for ${lagMs} ms`)
  return { status: "ok", reason: null, ...facts }
}

/** The freshness now, from the indexer's progress and the heads seen: no chain call. */
export const currentFreshness = Effect.gen(function*() {
  const indexer = yield* Indexer
  const chainHead = yield* ChainHead
  const progress = yield* indexer.progress
  const head = Option.getOrNull(yield* chainHead.latest)
  const input: FreshnessInput = {
    progress,
    head,
    probe: yield* chainHead.probe,
    aheadSince: Option.getOrNull(yield* chainHead.aheadOfSince(progress.indexed)),
    now: yield* Clock.currentTimeMillis
  }
  return { input, bounds: indexer.settings, freshness: freshnessOf(input, indexer.settings) }
})

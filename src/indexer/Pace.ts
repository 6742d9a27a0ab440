/**
 * How often to poll for the head: a setting when the operator gives one (`INDEXER_POLL_MS`), else half
 * the chain's block time as this process sees blocks arrive (Arc's half-second blocks: every 250 ms),
 * kept between 100 ms and one second. Block timestamps cannot tell the block time on Arc, where
 * several blocks share a second: the wall-clock interval between new heads does.
 */
import { Duration, Effect, Option, Ref } from "effect"

const INITIAL_MS = 250
const FLOOR_MS = 100
const CEILING_MS = 1_000
/** Weight of the newest interval in the running estimate. */
const WEIGHT = 0.2

interface Seen {
  readonly number: number
  readonly at: number
  /** Milliseconds per block, smoothed; null until two heads were seen. */
  readonly blockMs: number | null
}

export const makePace = (configured: Option.Option<number>) =>
  Effect.map(Ref.make<Seen | null>(null), (seen) => ({
    /** A higher head, seen at `at` (ms). */
    saw: (number: number, at: number) =>
      Ref.update(seen, (last) => {
        if (last === null || number <= last.number) return { number, at, blockMs: last?.blockMs ?? null }
        const sample = (at - last.at) / (number - last.number)
        const blockMs = last.blockMs === null ? sample : last.blockMs * (1 - WEIGHT) + sample * WEIGHT
        return { number, at, blockMs }
      }),
    pollInterval: Option.match(configured, {
      onSome: (ms) => Effect.succeed(Duration.millis(ms)),
      onNone: () =>
        Effect.map(Ref.get(seen), (last) =>
          Duration.millis(
            last?.blockMs == null
              ? INITIAL_MS
              : Math.min(CEILING_MS, Math.max(FLOOR_MS, Math.round(last.blockMs / 2)))
          ))
    })
  }))

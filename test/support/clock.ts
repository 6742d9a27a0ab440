/**
 * Clocks a test sets, for product code that reads the time through Effect's `Clock`:
 * - `pinnedClock(ms)` stands still at one instant, so a wait computed from "now" is exact
 *   (a receipt's `retryAfterSec` asked at the recorded read's instant plus 1.5 s is 4, every time);
 * - `movableClock()` keeps real time until a test moves it on, for a service whose other parts (the
 *   chain's block timestamps, a node's answers) keep real time while a quote must look old.
 * `TestClock` (from `it.effect`) starts at 0 and is the right tool when nothing outside the program
 * reads the time; these two are for programs that also talk to a devnet. Both sleep in real time.
 */
import { Clock, Effect, Layer } from "effect"

const live = Clock.make()

const clockAt = (millis: () => number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: millis,
  currentTimeMillis: Effect.sync(millis),
  unsafeCurrentTimeNanos: () => BigInt(millis()) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => BigInt(millis()) * 1_000_000n),
  sleep: (duration) => live.sleep(duration)
})

/** A clock that reads `atMs` whenever it is asked. */
export const pinnedClock = (atMs: number): Clock.Clock => clockAt(() => atMs)

/** Runs `effect` with the time standing at `atMs`. */
export const atInstant = (atMs: number) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withClock(effect, pinnedClock(atMs))

export interface MovableClock {
  readonly clock: Clock.Clock
  /** A layer that makes `clock` the clock of everything built after it (a server and its requests). */
  readonly layer: Layer.Layer<never>
  /** Moves the clock on by `ms` without waiting. */
  readonly advance: (ms: number) => void
}

/** The real time plus whatever a test has moved it on by. */
export const movableClock = (): MovableClock => {
  let aheadMs = 0
  const clock = clockAt(() => live.unsafeCurrentTimeMillis() + aheadMs)
  return { clock, layer: Layer.setClock(clock), advance: (ms) => void (aheadMs += ms) }
}

/**
 * Clocks a test sets, for product code that reads the time through Effect's `Clock`:
 * - `pinnedClock(ms)` stands still at one instant, so a wait computed from "now" is exact
 *   (a receipt's `retryAfterSec` asked at the recorded read's instant plus 1.5 s is 4, every time);
 * - `movableClock()` keeps real time except while a test runs something ahead of it, for a service
 *   whose other parts (the chain's block timestamps, a payer's signed validity window) keep real time
 *   while a quote must look old.
 * `TestClock` (from `it.effect`) starts at 0 and is the right tool when nothing outside the program
 * reads the time; these two are for programs that also talk to a devnet. Both sleep in real time.
 */
import { Clock, Effect } from "effect"

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
  /** Runs `action` with the clock `ms` ahead of real time, then brings it back. */
  readonly ahead: <A>(ms: number, action: () => Promise<A>) => Promise<A>
}

/** The real time, or ahead of it while a test says so. */
export const movableClock = (): MovableClock => {
  let aheadMs = 0
  return {
    clock: clockAt(() => live.unsafeCurrentTimeMillis() + aheadMs),
    ahead: async (ms, action) => {
      aheadMs += ms
      try {
        return await action()
      } finally {
        aheadMs -= ms
      }
    }
  }
}

/**
 * Waiting for something a test cannot be told about (a devnet, a server, a background fiber): ask
 * again, a bounded number of times, until it holds. The bound is a count of attempts, never a deadline
 * in milliseconds, so a loaded machine makes a test slower, not red; when the attempts run out the
 * test fails naming what it waited for and the last thing it saw. The pause between attempts is real
 * time (the world outside the program does not follow `TestClock`).
 */
import { Effect } from "effect"

export interface Polling {
  /** How many times to ask (100 by default). */
  readonly attempts?: number
  /** The real pause between two attempts (100 ms by default). */
  readonly spacingMs?: number
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const gaveUp = (what: string, attempts: number, last: unknown) =>
  new Error(`gave up waiting for ${what} after ${attempts} attempts; last saw ${shown(last)}`)

const shown = (value: unknown) => {
  if (value instanceof Error) return value.message
  try {
    return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v))
  } catch {
    return String(value)
  }
}

/**
 * Asks `check` until it answers something other than `undefined` or `false` and returns that answer.
 * A check that throws counts as "not yet" (a server still starting refuses connections).
 */
export const untilAsync = async <A>(
  what: string,
  check: () => Promise<A | undefined | false>,
  { attempts = 100, spacingMs = 100 }: Polling = {}
): Promise<A> => {
  let last: unknown
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      last = await check()
      if (last !== undefined && last !== false) return last as A
    } catch (error) {
      last = error
    }
    if (attempt < attempts) await pause(spacingMs)
  }
  throw gaveUp(what, attempts, last)
}

/** `untilAsync` for an Effect: runs `check` until it succeeds with something other than `undefined` or `false`. */
export const until = <A, E, R>(
  what: string,
  check: Effect.Effect<A | undefined | false, E, R>,
  { attempts = 100, spacingMs = 100 }: Polling = {}
): Effect.Effect<A, Error, R> =>
  Effect.gen(function*() {
    let last: unknown
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const answer = yield* Effect.either(check)
      last = answer._tag === "Left" ? answer.left : answer.right
      if (answer._tag === "Right" && answer.right !== undefined && answer.right !== false) return answer.right as A
      if (attempt < attempts) yield* Effect.promise(() => pause(spacingMs))
    }
    return yield* Effect.fail(gaveUp(what, attempts, last))
  })

/**
 * Something a whole test file shares (a devnet, a server): started before the file's tests, stopped
 * after them. Called once at the file's top level, it answers at once with a view that reads the
 * started thing, so the file names it in one `const` instead of a `let` and two hooks.
 */
import { afterAll, beforeAll } from "vitest"

export const forFile = <A extends object>(
  start: () => Promise<A>,
  stop: (started: A) => Promise<unknown>,
  timeoutMs?: number
): A => {
  let started: A | undefined
  beforeAll(async () => {
    started = await start()
  }, timeoutMs)
  afterAll(async () => {
    if (started !== undefined) await stop(started)
  })
  return new Proxy({} as A, {
    get: (_, key) => {
      if (started === undefined) throw new Error(`${String(key)} is read before beforeAll started it`)
      return Reflect.get(started, key)
    }
  })
}

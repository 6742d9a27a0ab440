/**
 * The verdict and owner-power caches (src/safety/RequestCache.ts): an entry answers later gets of its id
 * without a lookup, and does not keep alive the request it was looked up with, which in the service
 * reaches the whole index state of a block.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { requestCache } from "../../src/safety/RequestCache.js"
import { collectGarbage } from "../support/gc.js"

/** Collects until `ref` is cleared, a turn of the loop apart (a WeakRef read in a turn holds it to its end). */
const clearedAfterCollection = async (ref: WeakRef<object>) => {
  for (let round = 0; round < 5; round++) {
    await new Promise((done) => setTimeout(done, 10))
    collectGarbage()
    if (ref.deref() === undefined) return true
  }
  return false
}

describe("a cache whose lookup needs a request", () => {
  it.effect("answers an id once looked up, and lets the request it looked up with be collected", () =>
    Effect.gen(function*() {
      let lookups = 0
      const cache = yield* requestCache({
        capacity: 16,
        timeToLive: "10 minutes",
        lookup: (request: { readonly state: Array<number>; readonly token: string }) =>
          Effect.sync(() => {
            lookups++
            return `${request.token} judged over ${request.state.length} pools`
          })
      })
      const refs: Array<WeakRef<object>> = []
      const ask = (token: string) => {
        const state = Array.from({ length: 100_000 }, (_, n) => n)
        refs.push(new WeakRef(state))
        return cache.get(token, { state, token })
      }
      expect(yield* ask("0xaa")).toBe("0xaa judged over 100000 pools")
      expect(yield* ask("0xaa")).toBe("0xaa judged over 100000 pools")
      expect(yield* ask("0xbb")).toBe("0xbb judged over 100000 pools")
      expect(lookups).toBe(2)
      for (const ref of refs) expect(yield* Effect.promise(() => clearedAfterCollection(ref))).toBe(true)

      yield* cache.invalidate("0xaa")
      expect(yield* ask("0xaa")).toBe("0xaa judged over 100000 pools")
      expect(lookups).toBe(3)
    }))
})

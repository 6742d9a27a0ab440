/**
 * The in-process exposure book, on `TestClock`: a payer's admission turn (a payer's next call waits for
 * it while another is being admitted, but only until its own authorization ends; then it is told so, and
 * the gate refuses it uncharged); and a payer's unconfirmed calls, several at once, served before
 * confirmation only under the payer's cap and the total cap, each ending with its authorization.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, TestClock } from "effect"
import { exposureBook } from "../../layers/payment/Exposure.js"

const payer = "0x00000000000000000000000000000000000000Aa"
const settings = { unconfirmedCap: 10_000n, payerCap: 6_000n, debtRefusalSec: 60 }
const other = "0x00000000000000000000000000000000000000Bb"
const entry = (key: string, value: bigint) => ({ key, nonce: `0x${key.padStart(64, "0")}`, value })

/** A book whose payer slot the call "first" holds, "second" waiting for it (its authorization ends in 10 s). */
const heldWithWaiter = Effect.gen(function*() {
  const book = exposureBook(settings)
  const nowMs = yield* Clock.currentTimeMillis
  expect(yield* book.take(payer, "first", nowMs + 600_000)).toBe(true)
  const second = yield* Effect.fork(book.take(payer, "second", nowMs + 10_000))
  return { book, nowMs, second }
})

describe("in-process exposure book", () => {
  it.effect("a payer's next call waits for the slot until its authorization ends, then is refused it", () =>
    Effect.gen(function*() {
      const { book, nowMs, second } = yield* heldWithWaiter
      yield* TestClock.adjust("9 seconds")
      expect(second.unsafePoll()).toBeNull()
      yield* TestClock.adjust("2 seconds")
      expect(yield* Fiber.join(second)).toBe(false)
      // The refused call held nothing: the slot is still the first call's, then free for the next.
      const third = yield* Effect.fork(book.take(payer, "third", nowMs + 600_000))
      yield* TestClock.adjust("1 second")
      expect(third.unsafePoll()).toBeNull()
      yield* book.free(payer, "second")
      yield* book.free(payer, "first")
      expect(yield* Fiber.join(third)).toBe(true)
    }))

  it.effect("a slot freed before the authorization ends goes to the waiting call", () =>
    Effect.gen(function*() {
      const { book, second } = yield* heldWithWaiter
      yield* TestClock.adjust("5 seconds")
      yield* book.free(payer, "first")
      expect(yield* Fiber.join(second)).toBe(true)
    }))

  it.effect("a payer has several unconfirmed calls, served early under its cap and the total cap", () =>
    Effect.gen(function*() {
      const book = exposureBook(settings)
      const until = (yield* Clock.currentTimeMillis) + 60_000
      expect(yield* book.reserve(payer, entry("1", 3_000n), until, true)).toBe(true)
      expect(yield* book.reserve(payer, entry("2", 3_000n), until, true)).toBe(true)
      // Past the payer's cap: recorded (its balance must cover it) but settled before it is served.
      expect(yield* book.reserve(payer, entry("3", 1_000n), until, true)).toBe(false)
      expect((yield* book.unconfirmedOf(payer.toLowerCase())).map((e) => e.key)).toEqual(["1", "2", "3"])
      // Another payer: under its own cap, up to the total cap (10,000, 6,000 of it taken).
      expect(yield* book.reserve(other, entry("4", 4_000n), until, true)).toBe(true)
      expect(yield* book.reserve(other, entry("5", 1n), until, true)).toBe(false)
      expect(yield* book.snapshot).toEqual({
        unconfirmed: { count: 3, value: 10_000n },
        debts: { count: 0, value: 0n },
        payers: [
          { payer: payer.toLowerCase(), count: 2, value: 6_000n },
          { payer: other.toLowerCase(), count: 1, value: 4_000n }
        ]
      })
      yield* book.close(payer, "1")
      expect(yield* book.reserve(other, entry("6", 2_000n), until, true)).toBe(true)
      expect((yield* book.unconfirmedOf(payer)).map((e) => e.key)).toEqual(["2", "3"])
    }))

  it.effect("an unconfirmed call no one closes ends with its authorization", () =>
    Effect.gen(function*() {
      const book = exposureBook(settings)
      const nowMs = yield* Clock.currentTimeMillis
      yield* book.reserve(payer, entry("1", 6_000n), nowMs + 10_000, true)
      yield* TestClock.adjust("11 seconds")
      expect(yield* book.unconfirmedOf(payer)).toEqual([])
      expect(yield* book.reserve(payer, entry("2", 6_000n), nowMs + 60_000, true)).toBe(true)
    }))
})

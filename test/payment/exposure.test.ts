/**
 * The in-process exposure book's payer slot, on `TestClock`: a payer's next call waits for the slot
 * while the call before it holds it, but only until its own authorization ends; then it is told so
 * (the gate refuses it uncharged) rather than kept waiting for a settlement that may never confirm.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, TestClock } from "effect"
import { exposureBook } from "../../layers/payment/Exposure.js"

const payer = "0x00000000000000000000000000000000000000Aa"
const settings = { unconfirmedCap: 10_000n, debtRefusalSec: 60 }

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
})

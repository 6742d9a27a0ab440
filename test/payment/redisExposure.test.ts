/**
 * The exposure book shared by replicas through Redis (two clients on the machine's Redis, as two
 * replicas, under a key prefix of this test's own, deleted after): a payer never holds two slots, so
 * never two unconfirmed settlements, across replicas; a debt one replica records refuses the payer on
 * the other; the unconfirmed value one replica serves counts against the cap on the other, and calls
 * racing on both replicas for the room left under the cap never pass it between them.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { randomUUID } from "node:crypto"
import { redisExposureBook } from "../../layers/payment/RedisExposure.js"
import { redisClient } from "../../layers/Redis.js"
import { dropKeys, redisUp, redisUrl } from "../support/redis.js"

const prefix = `test:exposure:${randomUUID()}:`
afterAll(() => dropKeys(prefix))

const settings = { unconfirmedCap: 10_000n, payerCap: 6_000n, debtRefusalSec: 60 }
const entry = (key: string, value: bigint) => ({ key, nonce: `0x${"ab".repeat(32)}`, value })
const replicas = Effect.gen(function*() {
  const connect = Effect.orDie(redisClient(redisUrl, (cause) => cause))
  return [redisExposureBook(yield* connect, prefix, settings), redisExposureBook(yield* connect, prefix, settings)]
})
const payer = "0x00000000000000000000000000000000000000Aa"
const inAMinute = () => Date.now() + 60_000

describe.skipIf(!redisUp)("exposure book in Redis, two replicas", () => {
  it.live("a payer's slot held on one replica keeps the other waiting until it is freed", () =>
    Effect.scoped(Effect.gen(function*() {
      const [a, b] = yield* replicas
      yield* a.take(payer, "first", inAMinute())
      const tookSecond = yield* Deferred.make<void>()
      const second = yield* Effect.fork(
        Effect.zipRight(b.take(payer, "second", inAMinute()), Deferred.succeed(tookSecond, undefined))
      )
      yield* Effect.sleep("150 millis")
      expect(yield* Deferred.isDone(tookSecond)).toBe(false)
      // Only the holder frees the slot: another call's key does nothing.
      yield* b.free(payer, "not-the-holder")
      yield* Effect.sleep("100 millis")
      expect(yield* Deferred.isDone(tookSecond)).toBe(false)
      yield* a.free(payer, "first")
      yield* Fiber.join(second)
      expect(yield* Deferred.isDone(tookSecond)).toBe(true)
      yield* b.free(payer, "second")
    })))

  it.live("a payer's call waiting on the other replica's slot gives up when its authorization ends", () =>
    Effect.scoped(Effect.gen(function*() {
      const [a, b] = yield* replicas
      const waiter = "0x00000000000000000000000000000000000000Cc"
      expect(yield* a.take(waiter, "first", inAMinute())).toBe(true)
      expect(yield* b.take(waiter, "second", Date.now() + 100)).toBe(false)
      yield* a.free(waiter, "first")
      expect(yield* b.take(waiter, "third", inAMinute())).toBe(true)
      yield* b.free(waiter, "third")
    })))

  it.live("a debt recorded by one replica refuses the payer on the other, until forgiven", () =>
    Effect.scoped(Effect.gen(function*() {
      const [a, b] = yield* replicas
      const debtor = "0x00000000000000000000000000000000000000Bb"
      expect(yield* b.debtOf(debtor)).toBeUndefined()
      yield* a.owe({ payer: debtor, value: 5_000n, transaction: "0x01", reason: "reverted", sinceBlock: 7n })
      yield* a.owe({ payer: debtor, value: 5_000n, transaction: "0x02", reason: "reverted", sinceBlock: 9n })
      expect(yield* b.debtOf(debtor)).toMatchObject({ value: 10_000n, sinceBlock: 7n })
      expect((yield* b.snapshot).debts).toEqual({ count: 1, value: 10_000n })
      yield* b.forgive(debtor)
      expect(yield* a.debtOf(debtor)).toBeUndefined()
      expect((yield* a.snapshot).debts).toEqual({ count: 0, value: 0n })
    })))

  it.live("unconfirmed value served on one replica counts against the cap on the other", () =>
    Effect.scoped(Effect.gen(function*() {
      const [a, b] = yield* replicas
      const other = "0x00000000000000000000000000000000000000Dd"
      expect(yield* a.reserve(payer, entry("key-1", 6_000n), inAMinute(), true)).toBe(true)
      expect(yield* b.reserve(other, entry("key-2", 5_000n), inAMinute(), true)).toBe(false)
      expect((yield* b.snapshot).unconfirmed).toEqual({ count: 1, value: 6_000n })
      expect((yield* b.snapshot).payers).toEqual([{ payer: payer.toLowerCase(), count: 1, value: 6_000n }])
      yield* a.close(payer, "key-1")
      yield* b.close(other, "key-2")
      expect(yield* b.reserve(other, entry("key-3", 5_000n), inAMinute(), true)).toBe(true)
      yield* b.close(other, "key-3")
    })))

  it.live("calls racing on two replicas for the last room under the cap: exactly as many win as fit", () =>
    Effect.scoped(Effect.gen(function*() {
      const [a, b] = yield* replicas
      const holder = "0x00000000000000000000000000000000000000Ee"
      expect(yield* a.reserve(holder, entry("held", 6_000n), inAMinute(), true)).toBe(true)
      // 4,000 left: one of two 4,000 calls, and four of twenty 1,000 calls, alternating replicas, each
      // call from a payer of its own (so only the total cap binds).
      const payerOf = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}`
      const race = (count: number, value: bigint) =>
        Effect.all(
          Array.from({ length: count }, (_, i) =>
            (i % 2 === 0 ? a : b).reserve(payerOf(i), entry(`race-${value}-${i}`, value), inAMinute(), true)),
          { concurrency: "unbounded" }
        )
      const lastSlot = yield* race(2, 4_000n)
      expect(lastSlot.filter(Boolean)).toHaveLength(1)
      expect((yield* a.snapshot).unconfirmed).toEqual({ count: 2, value: 10_000n })
      yield* Effect.forEach([0, 1], (i) => a.close(payerOf(i), `race-4000-${i}`))
      const many = yield* race(20, 1_000n)
      expect(many.filter(Boolean)).toHaveLength(4)
      expect((yield* b.snapshot).unconfirmed).toEqual({ count: 5, value: 10_000n })
      yield* a.close(holder, "held")
      yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => i), (i) => b.close(payerOf(i), `race-1000-${i}`))
    })))

  it.live("one payer's calls on two replicas: one list, served early only under the payer's cap", () =>
    Effect.scoped(Effect.gen(function*() {
      const [a, b] = yield* replicas
      const one = "0x00000000000000000000000000000000000000Ff"
      expect(yield* a.reserve(one, entry("p-1", 4_000n), inAMinute(), true)).toBe(true)
      expect(yield* b.reserve(one, entry("p-2", 2_000n), inAMinute(), true)).toBe(true)
      expect(yield* a.reserve(one, entry("p-3", 1_000n), inAMinute(), true)).toBe(false)
      expect((yield* b.unconfirmedOf(one)).map((e) => [e.key, e.value]).sort()).toEqual([
        ["p-1", 4_000n],
        ["p-2", 2_000n],
        ["p-3", 1_000n]
      ])
      yield* Effect.forEach(["p-1", "p-2", "p-3"], (key) => b.close(one, key))
      expect(yield* a.unconfirmedOf(one)).toEqual([])
    })))
})

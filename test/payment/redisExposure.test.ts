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

const settings = { unconfirmedCap: 10_000n, debtRefusalSec: 60 }
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
      expect(yield* a.reserve("key-1", 6_000n, inAMinute())).toBe(true)
      expect(yield* b.reserve("key-2", 5_000n, inAMinute())).toBe(false)
      expect((yield* b.snapshot).unconfirmed).toEqual({ count: 1, value: 6_000n })
      yield* a.close("key-1")
      expect(yield* b.reserve("key-2", 5_000n, inAMinute())).toBe(true)
      yield* b.close("key-2")
    })))

  it.live("calls racing on two replicas for the last room under the cap: exactly as many win as fit", () =>
    Effect.scoped(Effect.gen(function*() {
      const [a, b] = yield* replicas
      expect(yield* a.reserve("held", 6_000n, inAMinute())).toBe(true)
      // 4,000 left: one of two 4,000 calls, and four of twenty 1,000 calls, alternating replicas.
      const race = (count: number, value: bigint) =>
        Effect.all(
          Array.from({ length: count }, (_, i) =>
            (i % 2 === 0 ? a : b).reserve(`race-${value}-${i}`, value, inAMinute())),
          { concurrency: "unbounded" }
        )
      const lastSlot = yield* race(2, 4_000n)
      expect(lastSlot.filter(Boolean)).toHaveLength(1)
      expect((yield* a.snapshot).unconfirmed).toEqual({ count: 2, value: 10_000n })
      yield* Effect.forEach([0, 1], (i) => a.close(`race-4000-${i}`))
      const many = yield* race(20, 1_000n)
      expect(many.filter(Boolean)).toHaveLength(4)
      expect((yield* b.snapshot).unconfirmed).toEqual({ count: 5, value: 10_000n })
    })))
})

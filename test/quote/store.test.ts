/**
 * The QuoteStore's rules, in memory and in Redis alike: a quote is live until its expiry, then known
 * as expired for the retention time, then gone; concurrent updates of one quote never lose one
 * another's changes (in Redis, from two clients: two replicas); records survive a round trip through
 * their schema. The Redis cases run on the machine's Redis (`REDIS_URL`, 127.0.0.1:6379 by default)
 * under a key prefix of their own, deleted after; they are skipped, saying so, when none answers.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema, type Scope, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { QuoteStore, type QuoteStoreShape } from "../../layers/QuoteStore.js"
import { redisClient } from "../../layers/Redis.js"
import { redisQuoteStore } from "../../layers/RedisQuoteStore.js"
import { lowerAddress } from "../../schema/Chain.js"
import { QuoteRecord } from "../../schema/QuoteRecord.js"
import { record } from "../support/quoteRecord.js"
import { dropKeys, redisUp, redisUrl } from "../support/redis.js"

/** Two handles on one store: the same one in memory, two clients (two replicas) on one Redis. */
type Stores = Effect.Effect<readonly [QuoteStoreShape, QuoteStoreShape], never, Scope.Scope>

const prefix = `test:store:${randomUUID()}:`
afterAll(() => dropKeys(prefix))

const inMemory: Stores = Effect.map(QuoteStore.make(60_000), (store) => [store, store] as const)
const inRedis: Stores = Effect.gen(function*() {
  const connect = Effect.orDie(redisClient(redisUrl, (cause) => cause))
  const [a, b] = [yield* connect, yield* connect]
  return [redisQuoteStore(a, prefix, 60_000), redisQuoteStore(b, prefix, 60_000)] as const
})

const rules = (name: string, stores: Stores, skip: boolean) =>
  describe.skipIf(skip)(`QuoteStore (${name})`, () => {
    it.scoped("a quote is live until expiresAt, expired for the retention time, then missing", () =>
      Effect.gen(function*() {
        const [store] = yield* stores
        yield* store.put(record("q_01", 120_000))
        expect((yield* store.get("q_01"))._tag).toBe("Live")
        yield* TestClock.adjust("119999 millis")
        expect((yield* store.get("q_01"))._tag).toBe("Live")
        yield* TestClock.adjust("1 millis")
        expect((yield* store.get("q_01"))._tag).toBe("Expired")
        yield* TestClock.adjust("59999 millis")
        expect((yield* store.get("q_01"))._tag).toBe("Expired")
        yield* TestClock.adjust("1 millis")
        expect((yield* store.get("q_01"))._tag).toBe("Missing")
        expect((yield* store.get("q_unknown"))._tag).toBe("Missing")
      }))

    // Live clock: an update that lost a race pauses (a few ms) before it decides again.
    it.scopedLive("concurrent updates of one quote are applied one after another, none lost", () =>
      Effect.gen(function*() {
        const [one, other] = yield* stores
        yield* one.put(record("q_02", Date.now() + 120_000))
        const fail = (store: QuoteStoreShape) =>
          store.update("q_02", (found) => {
            const attempts = found.record.attempts
            return [attempts.swapFailures + 1, {
              ...found.record,
              attempts: { ...attempts, swapFailures: attempts.swapFailures + 1 }
            }] as const
          }).pipe(Effect.either)
        const results = yield* Effect.all(Array.from({ length: 50 }, (_, i) => fail(i % 2 === 0 ? one : other)), {
          concurrency: "unbounded"
        })
        // In Redis an update that keeps losing to the others gives up (a retryable 503) rather than
        // spin; every update that reports success was applied, exactly once, none lost.
        const refused = results.filter(Either.isLeft).map((r) => r.left._tag)
        expect(refused.every((tag) => tag === "RpcUnavailable")).toBe(true)
        const seen = results.flatMap((r) => Either.isRight(r) && r.right._tag === "Updated" ? [r.right.result] : [])
        expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1))
        expect(seen.length + refused.length).toBe(50)
        expect(seen.length).toBeGreaterThan(0)
        const after = yield* other.get("q_02")
        expect(after._tag === "Live" && after.record.attempts.swapFailures).toBe(seen.length)
        expect(after._tag === "Live" && after.record.version).toBe(seen.length)
      }))

    it.scopedLive("only one of many concurrent claims of the free replacement succeeds", () =>
      Effect.gen(function*() {
        const [one, other] = yield* stores
        yield* one.put(record("q_03", Date.now() - 1_000))
        const claim = (store: QuoteStoreShape) =>
          store.update("q_03", (found) =>
            found.record.attempts.replacementIssued
              ? [false, undefined] as const
              : [true, { ...found.record, attempts: { ...found.record.attempts, replacementIssued: true } }] as const)
        const claims = yield* Effect.all(Array.from({ length: 20 }, (_, i) => claim(i % 2 === 0 ? one : other)), {
          concurrency: "unbounded"
        })
        expect(claims.filter((c) => c._tag === "Updated" && c.result)).toHaveLength(1)
        expect((yield* one.update("q_missing", () => [1, undefined] as const))._tag).toBe("Missing")
      }))
  })

rules("memory", inMemory, false)
rules("Redis, two clients", inRedis, !redisUp)

describe("QuoteRecord encoding", () => {
  it("a record survives its schema's JSON encoding, bigints included", () => {
    const original = record("q_04", 5)
    const json = JSON.stringify(Schema.encodeSync(QuoteRecord)(original))
    expect(Schema.decodeUnknownSync(QuoteRecord)(JSON.parse(json))).toEqual(original)
  })

  it("a built swap and a kept receipt answer survive it too", () => {
    const hash = `0x${"ab".repeat(32)}`
    const original: QuoteRecord = {
      ...record("q_0000000000000005", 5),
      swap: {
        builtAtMs: 1,
        block: 40,
        taker: lowerAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"),
        recipient: lowerAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"),
        minAmountOut: 3_267_000_000_000_000n,
        amountOutSimulated: 3_300_000_000_000_000n,
        planHashes: [`0x${"cd".repeat(32)}`]
      },
      receiptReads: {
        count: 2,
        lastAtMs: 7,
        final: {
          txHashes: [hash],
          answer: {
            quoteId: "q_0000000000000005",
            result: "pass",
            delivered: "3300000000000000",
            minAmountOut: "3267000000000000",
            token: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as never,
            recipient: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as never,
            swapTxHash: hash,
            block: 41,
            transactions: [{ txHash: hash, status: "success", block: 41 }],
            unlistedFills: [],
            reason: null
          }
        }
      }
    }
    const json = JSON.stringify(Schema.encodeSync(QuoteRecord)(original))
    expect(Schema.decodeUnknownSync(QuoteRecord)(JSON.parse(json))).toEqual(original)
  })
})

/**
 * The in-memory QuoteStore: a quote is live until its expiry, then known as expired for the retention
 * time, then gone; concurrent updates of one quote never lose one another's changes; records survive a
 * round trip through their schema (what a remote store will do).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { QuoteRecord } from "../../schema/QuoteRecord.js"

const record = (quoteId: string, expiresAtMs: number): QuoteRecord => ({
  quoteId,
  version: 0,
  createdAtMs: 0,
  expiresAtMs,
  block: 12,
  network: "eip155:5042",
  request: {
    sell: "0x3600000000000000000000000000000000000000",
    buy: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    amount: "10",
    side: "exactIn",
    slippageBps: 100,
    ttlSec: 120,
    maxSplits: 3,
    maxHops: 2
  },
  sell: "0x3600000000000000000000000000000000000000",
  buy: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  side: "exactIn",
  plan: {
    type: "direct",
    executable: true,
    edges: [{
      path: 0,
      venue: "uniswap-v2",
      kind: "v2",
      poolId: "0xabc",
      tokenIn: "0x3600000000000000000000000000000000000000",
      tokenOut: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      amountIn: 10_000_000n,
      amountOut: 3_300_000_000_000_000n
    }]
  },
  amountIn: 10_000_000n,
  amountOut: 3_300_000_000_000_000n,
  minAmountOut: 3_267_000_000_000_000n,
  maxAmountIn: 10_000_000n,
  gasUnits: 90_000n,
  fallbacks: [],
  safety: null,
  orderUsdMicro: 10_000_000n,
  swapPrice: 10_000n,
  attempts: { swapFailures: 0, replacementIssued: false, swapPaid: false },
  permitRound: null,
  swap: null,
  receiptReads: { count: 0, lastAtMs: 0, final: null }
})

describe("QuoteStore (in memory)", () => {
  it.effect("a quote is live until expiresAt, expired for the retention time, then missing", () =>
    Effect.gen(function*() {
      const store = yield* QuoteStore.make(60_000)
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

  it.effect("concurrent updates of one quote are applied one after another, none lost", () =>
    Effect.gen(function*() {
      const store = yield* QuoteStore.make(60_000)
      yield* store.put(record("q_02", 120_000))
      const fail = store.update("q_02", (found) => {
        const attempts = found.record.attempts
        return [attempts.swapFailures + 1, {
          ...found.record,
          attempts: { ...attempts, swapFailures: attempts.swapFailures + 1 }
        }] as const
      })
      const results = yield* Effect.all(Array.from({ length: 50 }, () => fail), { concurrency: "unbounded" })
      const seen = results.map((r) => (r._tag === "Updated" ? r.result : -1)).sort((a, b) => a - b)
      expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
      const after = yield* store.get("q_02")
      expect(after._tag === "Live" && after.record.attempts.swapFailures).toBe(50)
      expect(after._tag === "Live" && after.record.version).toBe(50)
    }))

  it.effect("only one of many concurrent claims of the free replacement succeeds", () =>
    Effect.gen(function*() {
      const store = yield* QuoteStore.make(60_000)
      yield* store.put(record("q_03", 1_000))
      yield* TestClock.adjust("2 seconds")
      const claim = store.update("q_03", (found) =>
        found.record.attempts.replacementIssued
          ? [false, undefined] as const
          : [true, { ...found.record, attempts: { ...found.record.attempts, replacementIssued: true } }] as const)
      const claims = yield* Effect.all(Array.from({ length: 20 }, () => claim), { concurrency: "unbounded" })
      expect(claims.filter((c) => c._tag === "Updated" && c.result)).toHaveLength(1)
      expect((yield* store.update("q_missing", () => [1, undefined] as const))._tag).toBe("Missing")
    }))

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
        taker: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
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

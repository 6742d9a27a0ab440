/**
 * The rules behind answers at the head, on their own: which head observation wins a race, what counts
 * as a contract written in a block, and when health says the index lags.
 */
import { describe, expect, it } from "@effect/vitest"
import { lowerHex } from "../../schema/Chain.js"
import { type FreshnessInput, freshnessOf } from "../../src/indexer/Freshness.js"
import { nextObserved, type ObservedHead } from "../../src/indexer/Observed.js"
import type { IndexerProgress } from "../../src/indexer/Progress.js"
import { writtenIn, writtenInStateDiffs } from "../../src/safety/BlockWrites.js"

const head = (
  number: number,
  hash: `0x${string}`,
  at: number,
  source: ObservedHead["source"] = "pushed"
): ObservedHead => ({
  header: { number, hash: lowerHex(hash), parentHash: lowerHex("0x00"), time: 0 },
  at,
  source
})

describe("which head observation wins", () => {
  it("a higher head, or another block at the same height, replaces the current one", () => {
    expect(nextObserved(head(10, "0xa", 100), head(11, "0xb", 110), 105).header.number).toBe(11)
    expect(nextObserved(head(10, "0xa", 100), head(10, "0xc", 110, "polled"), 90).header.hash).toBe("0xc")
  })

  it("a lower head answering a read sent before the current head was seen is a stale answer, and loses", () => {
    expect(nextObserved(head(11, "0xb", 110), head(10, "0xa", 115, "polled"), 100).header.number).toBe(11)
  })

  it("a lower head answering a read sent after the current head was seen means the chain got shorter", () => {
    expect(nextObserved(head(11, "0xb", 110), head(10, "0xa", 130, "polled"), 120).header.number).toBe(10)
  })

  it("the same head seen again renews when it was seen, keeping how it was first learned", () => {
    expect(nextObserved(head(10, "0xa", 100), head(10, "0xa", 150, "polled"), 140)).toEqual(head(10, "0xa", 150))
  })
})

describe("contracts written in a block, from its state diff", () => {
  it("counts a slot written from zero, a slot cleared to zero, new code and a destroyed account", () => {
    const written = writtenIn([
      { result: { pre: { "0xA": { balance: "0x1" } }, post: { "0xA": { storage: { "0x1": "0xff" } } } } },
      { result: { pre: { "0xB": { storage: { "0x1": "0xff" } } }, post: { "0xB": {} } } },
      { result: { pre: {}, post: { "0xC": { code: "0x60", nonce: 1 } } } },
      { result: { pre: { "0xD": { balance: "0x5" } }, post: {} } }
    ] as never)
    expect([...written].sort()).toEqual(["0xa", "0xb", "0xc", "0xd"])
  })

  it("does not count a sender's or the producer's balance and nonce", () => {
    const written = writtenIn([
      { result: { pre: { "0xE": { balance: "0x9", nonce: 1 } }, post: { "0xE": { balance: "0x8", nonce: 2 } } } }
    ] as never)
    expect([...written]).toEqual([])
  })
  it("from parity state diffs: a changed slot, new code and destroyed code count; balance and nonce do not", () => {
    const written = writtenInStateDiffs([
      {
        stateDiff: {
          "0xA": { balance: "=", code: "=", nonce: "=", storage: { "0x1": { "*": { from: "0x0", to: "0xff" } } } }
        }
      },
      { stateDiff: { "0xC": { balance: { "+": "0x0" }, code: { "+": "0x60" }, nonce: { "+": "0x1" }, storage: {} } } },
      { stateDiff: { "0xD": { balance: { "-": "0x5" }, code: { "-": "0x60" }, nonce: { "-": "0x1" }, storage: {} } } },
      {
        stateDiff: {
          "0xE": {
            balance: { "*": { from: "0x9", to: "0x8" } },
            code: "=",
            nonce: { "*": { from: "0x1", to: "0x2" } },
            storage: {}
          }
        }
      },
      { stateDiff: null }
    ] as never)
    expect([...written].sort()).toEqual(["0xa", "0xc", "0xd"])
  })
})

const progress = (indexed: number): IndexerProgress => ({
  head: indexed,
  indexed,
  logsPerSec: 0,
  logsApplied: 0,
  catchingUp: false,
  resumedFrom: null,
  firstFetched: null,
  rollbacks: 0,
  lastError: null,
  failures: 0,
  syncedAt: 1_000
})

const bounds = { maxAgeSec: 5, maxLagBlocks: 10, maxLagMillis: 1_000 }
const input = (indexed: number, seen: ObservedHead, aheadSince: number | null, now: number): FreshnessInput => ({
  progress: progress(indexed),
  head: seen,
  probe: { at: now, ok: true, latencyMs: 1, block: seen.header.number, error: null },
  aheadSince,
  now
})

describe("health's lag", () => {
  it("is none at the head, and counts blocks and milliseconds since the first head above the index", () => {
    expect(freshnessOf(input(20, head(20, "0xa", 1_900), null, 2_000), bounds)).toMatchObject({
      status: "ok",
      lagBlocks: 0,
      lagMs: 0,
      indexAgeSec: 0.1
    })
    expect(freshnessOf(input(20, head(22, "0xb", 1_900), 1_700, 2_000), bounds)).toMatchObject({
      status: "ok",
      lagBlocks: 2,
      lagMs: 300
    })
  })

  it("turns degraded past either bound: blocks or milliseconds", () => {
    expect(freshnessOf(input(20, head(31, "0xb", 1_900), 1_700, 2_000), bounds)).toMatchObject({
      status: "degraded",
      reason: "index 11 blocks behind the head"
    })
    expect(freshnessOf(input(20, head(21, "0xb", 1_900), 800, 2_000), bounds)).toMatchObject({
      status: "degraded",
      reason: "index behind the head for 1200 ms"
    })
  })
})

/**
 * Work overlapped with the head read (`AtHead.overlapped`, `quote`) answers at the head as of the
 * request's arrival, as if it had waited for the head first. The index learns of a block only from the
 * read at arrival (no pushed heads, a one-minute poll), so a block mined right before a call is one the
 * published snapshot does not have yet: the run started on that snapshot must be dropped, never
 * answered or recorded, and the work run again at the new block.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema, Stream } from "effect"
import { type Address, parseUnits } from "viem"
import { QuoteStore } from "../../layers/QuoteStore.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { AtHead } from "../../src/indexer/AtHead.js"
import { ChainHead } from "../../src/indexer/ChainHead.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { quote } from "../../src/quote/Quote.js"
import { startArrivalOnly } from "../support/arrivalOnly.js"
import { deployTrap, listWithPair, movePrice } from "../support/traps.js"
import type { Wallet } from "../support/wallet.js"
import type { Harness } from "../swap/harness.js"

const ROUNDS = 20

let harness: Harness
let lp: Wallet
let usdc: Address
let token: Address
let pair: Address
beforeAll(async () => {
  ;({ harness, lp, usdc } = await startArrivalOnly())
  token = await deployTrap(lp, "SwitchLockToken")
  pair = (await listWithPair(harness.devnet.manifest, lp, token)).pair
}, 120_000)
afterAll(() => harness?.stop())

/** The block of the snapshot the index has published. */
const publishedBlock = () =>
  harness.runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.snapshot)).then((snapshot) =>
    snapshot.state.block
  )

/** `quote` as the operation runs it, with the quotes it stored. */
const quoted = (request: Record<string, unknown>) =>
  harness.runtime.runPromise(Effect.gen(function*() {
    const store = yield* QuoteStore
    const stored: Array<QuoteRecord> = []
    const counted = {
      ...store,
      put: (record: QuoteRecord) => Effect.zipRight(Effect.sync(() => stored.push(record)), store.put(record))
    }
    const answer = yield* Schema.decodeUnknown(QuoteRequest)(request).pipe(
      Effect.orDie,
      Effect.flatMap(quote),
      Effect.provideService(QuoteStore, counted)
    )
    return { answer, stored }
  }))

describe("work overlapped with the head read", () => {
  it(
    "a price moved in a block the index has not seen is quoted at that block, and only that quote is stored",
    async () => {
      const wrong: Array<string> = []
      for (let round = 0; round < ROUNDS; round++) {
        const request = { sell: usdc, buy: token, amount: "100" }
        const before = await quoted(request)
        const moved = await movePrice(lp, pair, usdc, parseUnits("2500", 6))
        const stale = await publishedBlock()
        const after = await quoted(request)
        const again = await quoted(request)
        const out = (answer: typeof after.answer) => answer.best.amountOutQuotedRaw
        if (stale >= moved) wrong.push(`round ${round}: the index had block ${moved} before the call`)
        if (after.answer.block < moved || out(after.answer) === out(before.answer)) {
          wrong.push(`round ${round}: answered ${out(after.answer)} at block ${after.answer.block} (moved in ${moved})`)
        }
        if (after.stored.length !== 1 || after.stored[0]!.quoteId !== after.answer.quoteId) {
          wrong.push(`round ${round}: stored ${after.stored.map((r) => `${r.quoteId}@${r.block}`).join(", ")}`)
        }
        if (after.stored[0]?.block !== after.answer.block) wrong.push(`round ${round}: stored at another block`)
        // Nothing moved since: the run on the published snapshot stands, with the same answer.
        if (again.answer.block !== after.answer.block || out(again.answer) !== out(after.answer)) {
          wrong.push(`round ${round}: asked again, ${out(again.answer)} at ${again.answer.block}`)
        }
      }
      expect(wrong).toEqual([])
    },
    300_000
  )

  it("a run on a snapshot the head has passed is dropped, and the work runs again at the head", async () => {
    const moved = await movePrice(lp, pair, usdc, parseUnits("10", 6))
    const stale = await publishedBlock()
    const { result, seen } = await harness.runtime.runPromise(Effect.gen(function*() {
      const atHead = yield* AtHead
      const chainHead = yield* ChainHead
      const seen: Array<number> = []
      // On the stale snapshot the run lasts until the head read has landed: it cannot answer by finishing
      // before the head is known.
      const result = yield* atHead.overlapped((snapshot) =>
        Effect.gen(function*() {
          seen.push(snapshot.state.block)
          if (snapshot.state.block < moved) {
            yield* chainHead.heads.pipe(Stream.filter((head) => head.number >= moved), Stream.runHead)
          }
          return snapshot.state.block
        })
      )
      return { result, seen }
    }))
    expect(stale).toBeLessThan(moved)
    expect(result).toBe(moved)
    // The run on the stale snapshot may not have started before the head landed; at most it started.
    expect(seen.filter((block) => block !== stale)).toEqual([moved])
    expect(seen.length).toBeLessThanOrEqual(2)
  })

  it("when the published snapshot is at the head, the work runs once, on it", async () => {
    const head = await publishedBlock()
    const seen = await harness.runtime.runPromise(Effect.gen(function*() {
      const seen: Array<number> = []
      yield* (yield* AtHead).overlapped((snapshot) => Effect.sync(() => seen.push(snapshot.state.block)))
      return seen
    }))
    expect(seen).toEqual([head])
  })
})

/**
 * Every answer at the chain's head as of the request's arrival. Each case changes the chain in the
 * block right before the call and repeats 50 times in a row, with no retry:
 *
 * - a token whose sells are locked in the block before `quote` is judged from its locked state;
 * - a price moved in the block before `quote` is quoted at that block, with exactly one stored quote;
 * - a price moved in the block before `swap` answers 409 `quote_stale` with a replacement quote;
 * - a pool created in the block before `search` and `quote` is found by both;
 * - `/health` right after a block names that block as the head, one check or a burst of them.
 *
 * The first four run with no pushed heads and no polling (`WS_URL=off`, a one-minute poll): the index
 * learns of each block only because the operation reads the head when it arrives and waits for it.
 * Health runs on pushed heads, as the service does by default, with the same one-minute poll.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { type Address, parseUnits } from "viem"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { QuoteResponse } from "../../schema/Quote.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { health } from "../../src/operations/health.js"
import { search } from "../../src/operations/search.js"
import { quote } from "../../src/quote/Quote.js"
import { marketMaker } from "../indexer/market.js"
import { manifestAccount, tokenAddress } from "../support/devnet.js"
import { indexRuntime } from "../support/services.js"
import { deployTrap, fundLiquidityProvider, listWithPair, movePrice, trapAbi } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { answerOf, errorOf, harnessPerFile, operationsOf, takerOn } from "../swap/harness.js"

const ROUNDS = 50
const BURST = 8

/** The index learns of a block only from the head read an operation makes at its arrival. */
const { harness } = harnessPerFile({ WS_URL: "off", INDEXER_POLL_MS: "60000" })
let lp: Wallet
let usdc: Address
beforeAll(async () => {
  lp = walletFor(harness.devnet.manifest, manifestAccount(harness.devnet.manifest, 2))
  await fundLiquidityProvider(harness.devnet.manifest, lp)
  usdc = tokenAddress(harness.devnet.manifest, "USDC")
}, 120_000)

describe("answers at the head of the request's arrival, with neither pushed nor polled heads", () => {
  it(
    "a token whose sells were locked in the block before the quote is judged locked, and open once reopened",
    async () => {
      const ops = operationsOf(harness.runtime)
      const token = await deployTrap(lp, "SwitchLockToken")
      await listWithPair(harness.devnet.manifest, lp, token)
      const misjudged: Array<string> = []
      for (let round = 0; round < ROUNDS; round++) {
        for (const locked of [true, false]) {
          const switched = Number((await lp.write(token, trapAbi, "setSellsLocked", [locked])).blockNumber)
          const quoted = answerOf(await ops.quote({ sell: usdc, buy: token, amount: "10" }))
          const expected = locked ? ["cannot_sell", "stop"] : ["ok", "swap"]
          const seen = [quoted.safety?.verdict, quoted.next]
          if (quoted.block < switched || seen.join() !== expected.join()) {
            misjudged.push(
              `round ${round}, locked ${locked}: ${seen.join()} at block ${quoted.block} (switched in ${switched})`
            )
          }
        }
      }
      expect(misjudged).toEqual([])
    },
    300_000
  )

  it("a price moved in a block the index has not seen is quoted at that block, with one stored quote", async () => {
    const token = await deployTrap(lp, "SwitchLockToken")
    const { pair } = await listWithPair(harness.devnet.manifest, lp, token)
    const request = { sell: usdc, buy: token, amount: "100" }
    /** `quote` as the operation runs it, with the quotes it stored. */
    const quoted = () =>
      harness.runtime.runPromise(Effect.gen(function*() {
        const store = yield* QuoteStore
        const stored: Array<QuoteRecord> = []
        const put = (record: QuoteRecord) => Effect.zipRight(Effect.sync(() => stored.push(record)), store.put(record))
        const answer = yield* Schema.decodeUnknown(QuoteRequest)(request).pipe(
          Effect.orDie,
          Effect.flatMap(quote),
          Effect.provideService(QuoteStore, { ...store, put })
        )
        return { answer, out: answer.best.amountOutQuotedRaw, stored }
      }))
    const published = () => harness.runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.snapshot))
    const wrong: Array<string> = []
    for (let round = 0; round < ROUNDS; round++) {
      const before = await quoted()
      const moved = await movePrice(lp, pair, usdc, parseUnits("2500", 6))
      const stale = (await published()).state.block
      const after = await quoted()
      const again = await quoted()
      if (stale >= moved) wrong.push(`round ${round}: the index had block ${moved} before the call`)
      if (after.answer.block < moved || after.out === before.out) {
        wrong.push(`round ${round}: answered ${after.out} at block ${after.answer.block} (moved in ${moved})`)
      }
      if (after.stored.length !== 1 || after.stored[0]!.quoteId !== after.answer.quoteId) {
        wrong.push(`round ${round}: stored ${after.stored.map((r) => `${r.quoteId}@${r.block}`).join(", ")}`)
      }
      if (after.stored[0]?.block !== after.answer.block) wrong.push(`round ${round}: stored at another block`)
      if (again.answer.block !== after.answer.block || again.out !== after.out) {
        wrong.push(`round ${round}: asked again, ${again.out} at ${again.answer.block}`)
      }
    }
    expect(wrong).toEqual([])
  }, 300_000)

  it(
    "a price moved in the block before swap answers quote_stale with a replacement quote at or after that block",
    async () => {
      const ops = operationsOf(harness.runtime)
      const token = await deployTrap(lp, "SwitchLockToken")
      const { pair } = await listWithPair(harness.devnet.manifest, lp, token)
      const taker = await takerOn(harness, "100000", 0n)
      const built: Array<string> = []
      for (let round = 0; round < ROUNDS; round++) {
        // Alternately a buy and a sell, each moving the price about 10 % against the quote before it.
        const buying = round % 2 === 0
        const quoted = answerOf(
          await ops.quote({
            sell: buying ? usdc : token,
            buy: buying ? token : usdc,
            amount: "100",
            taker: taker.address
          })
        )
        const moved = buying
          ? await movePrice(lp, pair, usdc, parseUnits("2500", 6))
          : await movePrice(lp, pair, token, parseUnits("2500", 18))
        const answer = await ops.swap({ quoteId: quoted.quoteId, taker: taker.address })
        if (answer.ok) {
          built.push(`round ${round}: answered 200 with ${answer.answer.transactions.length} transactions`)
          continue
        }
        const error = errorOf(answer)
        const replacement = error._tag === "QuoteStale" && error.quote !== undefined
          ? Schema.decodeUnknownSync(QuoteResponse)(error.quote)
          : undefined
        if (replacement === undefined || replacement.block < moved) {
          built.push(`round ${round}: ${error._tag} with replacement at ${replacement?.block} (moved in ${moved})`)
        }
      }
      expect(built).toEqual([])
    },
    300_000
  )

  it("a pool created in the block before search and quote is found by both", async () => {
    const ops = operationsOf(harness.runtime)
    const maker = marketMaker(harness.devnet.manifest, manifestAccount(harness.devnet.manifest, 4))
    const missed: Array<string> = []
    for (let round = 0; round < ROUNDS; round++) {
      const listing = await maker.listToken(`Fresh ${round}`, `FRESH${round}`)
      const found = await harness.runtime.runPromise(
        search({ query: listing.token, limit: 1 }).pipe(Effect.either)
      )
      const result = found._tag === "Right" ? found.right.results[0] : undefined
      if (found._tag === "Left" || found.right.block < listing.block || result?.venues.length !== 1) {
        missed.push(`round ${round}: search ${found._tag === "Left" ? found.left._tag : `at ${found.right.block}`}`)
      }
      const quoted = await ops.quote({ sell: usdc, buy: listing.token, amount: "1" })
      if (!quoted.ok || quoted.answer.block < listing.block) {
        missed.push(`round ${round}: quote ${quoted.ok ? `at ${quoted.answer.block}` : quoted.error._tag}`)
      }
    }
    expect(missed).toEqual([])
  }, 300_000)
})

describe("health on pushed heads", () => {
  it("right after a block, names that block as the head", async () => {
    const runtime = indexRuntime(harness.devnet.manifest, { settings: { INDEXER_POLL_MS: "60000" } })
    try {
      await runtime.runPromise(health())
      const wrong: Array<string> = []
      for (let round = 0; round < ROUNDS; round++) {
        const mined = Number((await lp.transfer(usdc, lp.address, 1n)).blockNumber)
        const report = await runtime.runPromise(health())
        if (report.headBlock !== mined) wrong.push(`round ${round}: head ${report.headBlock}, mined ${mined}`)
      }
      expect(wrong).toEqual([])
    } finally {
      await runtime.dispose()
    }
  }, 120_000)

  it("a burst of checks right after a block all name that block", async () => {
    const runtime = indexRuntime(harness.devnet.manifest, { settings: { INDEXER_POLL_MS: "60000" } })
    const burst = Effect.all(Array.from({ length: BURST }, () => health()), { concurrency: "unbounded" })
    try {
      await runtime.runPromise(health())
      const wrong: Array<string> = []
      for (let round = 0; round < ROUNDS; round++) {
        const mined = Number((await lp.transfer(usdc, lp.address, 1n)).blockNumber)
        const reports = await runtime.runPromise(burst)
        const heads = reports.map((report) => report.headBlock)
        if (heads.some((head) => head !== mined)) wrong.push(`round ${round}: heads ${heads.join()}, mined ${mined}`)
      }
      expect(wrong).toEqual([])
    } finally {
      await runtime.dispose()
    }
  }, 120_000)
})

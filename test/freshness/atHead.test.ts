/**
 * Every answer at the chain's head as of the request's arrival. Each case changes the chain in the
 * block right before the call and repeats 50 times in a row, with no retry:
 *
 * - a token whose sells are locked in the block before `quote` is judged from its locked state;
 * - a price moved in the block before `swap` answers 409 `quote_stale` with a replacement quote;
 * - a pool created in the block before `search` and `quote` is found by both;
 * - `/health` right after a block names that block as the head.
 *
 * The first three run with no pushed heads and no polling (`WS_URL=off`, a one-minute poll): the index
 * learns of each block only because the operation reads the head when it arrives and waits for it.
 * Health runs on pushed heads, as the service does by default, with the same one-minute poll.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { parseUnits } from "viem"
import { QuoteResponse } from "../../schema/Quote.js"
import { health } from "../../src/operations/health.js"
import { search } from "../../src/operations/search.js"
import { marketMaker } from "../indexer/market.js"
import { startArrivalOnly } from "../support/arrivalOnly.js"
import { manifestAccount } from "../support/devnet.js"
import { forFile } from "../support/forFile.js"
import { indexRuntime } from "../support/services.js"
import { deployTrap, listWithPair, movePrice, trapAbi } from "../support/traps.js"
import { answerOf, errorOf, operationsOf, takerOn } from "../swap/harness.js"

const ROUNDS = 50

const arrival = forFile(startArrivalOnly, ({ harness }) => harness.stop(), 120_000)

describe("answers at the head of the request's arrival, with neither pushed nor polled heads", () => {
  it(
    "a token whose sells were locked in the block before the quote is judged locked, and open once reopened",
    async () => {
      const { harness, lp, usdc } = arrival
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

  it(
    "a price moved in the block before swap answers quote_stale with a replacement quote at or after that block",
    async () => {
      const { harness, lp, usdc } = arrival
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
    const { harness, usdc } = arrival
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
    const { harness, lp, usdc } = arrival
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
})

/**
 * Cached verdicts in search stand only while nothing they depend on was written. A token's owner
 * switches its sells off and on, each switch in its own block, with no trade in between (the token's
 * pool never changes): right after each switch, search never shows a verdict measured before it, and
 * the background scan, following the token's writes, measures it again (`cannot_sell` while locked).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { Address } from "viem"
import { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { search } from "../../src/operations/search.js"
import { manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"
import { deployTrap, fundLiquidityProvider, listWithPair, trapAbi } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"

const ROUNDS = 10

let devnet: PrivateDevnet
let runtime: ReturnType<typeof indexRuntime>
let lp: Wallet
let token: Address
beforeAll(async () => {
  devnet = await startDevnet()
  lp = walletFor(devnet.manifest, manifestAccount(devnet.manifest, 2))
  await fundLiquidityProvider(devnet.manifest, lp)
  token = await deployTrap(lp, "SwitchLockToken")
  await listWithPair(devnet.manifest, lp, token)
  runtime = indexRuntime(devnet.manifest, { settings: { SAFETY_SCAN: "true", SAFETY_SCAN_INTERVAL_MS: "100" } })
  await runtime.runPromise(synced)
}, 120_000)
afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

const lookUp = () =>
  runtime.runPromise(
    Schema.decodeUnknown(SearchRequest)({ query: token }).pipe(
      Effect.orDie,
      Effect.flatMap(search),
      Effect.map((answer) => Schema.encodeSync(SearchResponse)(answer))
    )
  )

/** Asks until the token shows `verdict` measured at or after `since`; fails past a minute. */
const shownAfter = async (verdict: string, since: number) => {
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    const safety = (await lookUp()).results[0]!.safety
    if (safety !== null && safety.verdict === verdict && safety.scope.block >= since) return safety
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`search never showed ${verdict} measured at or after block ${since}`)
}

describe("a verdict whose token was written since", () => {
  it("is never shown after the write, and the scan measures the token again", async () => {
    await shownAfter("ok", 0)
    const stale: Array<string> = []
    for (let round = 0; round < ROUNDS; round++) {
      for (const locked of [true, false]) {
        const switched = Number((await lp.write(token, trapAbi, "setSellsLocked", [locked])).blockNumber)
        const answer = await lookUp()
        const safety = answer.results[0]!.safety
        if (safety !== null && safety.scope.block < switched) {
          stale.push(
            `round ${round}, locked ${locked}: ${safety.verdict} from block ${safety.scope.block} < ${switched}`
          )
        }
        await shownAfter(locked ? "cannot_sell" : "ok", switched)
      }
    }
    expect(stale).toEqual([])
  }, 300_000)
})

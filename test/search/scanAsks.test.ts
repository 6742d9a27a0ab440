/**
 * What agents ask about is measured first, whatever the scan's waiting list holds: with room for one
 * waiting token, the start-up look keeps one and drops the rest (nothing on a quiet chain brings them
 * back); a search that shows one of those without a verdict asks for it, and the scan measures it. On
 * the shared devnet: the scan only simulates.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { SearchRequest } from "../../schema/Search.js"
import { search } from "../../src/operations/search.js"
import { SafetyScan } from "../../src/safety/Scan.js"
import { sharedManifest, tokenAddress } from "../support/devnet.js"
import { addressOf } from "../support/hex.js"
import { indexRuntime, synced } from "../support/services.js"
import { untilAsync } from "../support/until.js"

const runtime = indexRuntime(sharedManifest(), {
  settings: { SAFETY_SCAN: "true", SAFETY_SCAN_QUEUE: "1", SAFETY_SCAN_CONCURRENCY: "1" }
})
afterAll(() => runtime.dispose())

const scan = <A>(f: (service: SafetyScan) => Effect.Effect<A>) => runtime.runPromise(Effect.flatMap(SafetyScan, f))
const lookUp = (query: string) =>
  runtime.runPromise(Schema.decodeUnknown(SearchRequest)({ query }).pipe(Effect.orDie, Effect.flatMap(search)))

describe("the scan's asks", () => {
  it("a token searched without a verdict is measured, though the waiting list had dropped it", async () => {
    await runtime.runPromise(synced)
    // The start-up look has happened and its one kept token is done.
    await untilAsync("the first look to be worked off", async () => {
      const status = await scan((s) => s.status)
      return status.looks >= 1 && status.waiting === 0 && status.measured + status.unroutable >= 1
    }, { attempts: 600 })
    const candidates = ["WETH", "WBTC", "EURC", "DEGEN", "ORBIT", "ZAP", "BLOOM"]
    const judged = await Promise.all(
      candidates.map((label) => scan((s) => s.judgedAt(addressOf(tokenAddress(sharedManifest(), label)))))
    )
    const label = candidates.find((_, i) => Option.isNone(judged[i]!))!
    const token = addressOf(tokenAddress(sharedManifest(), label))
    const before = await lookUp(token)
    expect(before.results[0]!.safety).toBeNull()

    await untilAsync(`the scan to judge ${label}`, async () => Option.isSome(await scan((s) => s.judgedAt(token))), {
      attempts: 600
    })
    expect((await scan((s) => s.status)).asked).toBeGreaterThanOrEqual(1)
    const after = await lookUp(token)
    expect(after.results[0]!.safety).not.toBeNull()
    expect(after.results[0]!.safety!.scope.block).toBeLessThanOrEqual(after.block)
  })
})

/**
 * An idle chain: no block for longer than the index's age bound, no pushed heads, and a poll far apart
 * (as after a long catch-up held the poll up). The index still stands at the head; only a head read can
 * say so, and a request's own read at arrival does: it is answered, not refused as stale. A chain that
 * stopped answering is still refused at once (test/http/chainFaults.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { search } from "../../src/operations/search.js"
import { sharedManifest } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"

describe("an idle chain past the index's age bound", () => {
  it("a search after the bound is answered at the head, its own head read renewing the index's age", async () => {
    const runtime = indexRuntime(sharedManifest(), {
      settings: { WS_URL: "off", INDEXER_POLL_MS: "600000", INDEX_MAX_AGE_SEC: "1" }
    })
    try {
      const head = (await runtime.runPromise(synced)).state.block
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      const answers = await runtime.runPromise(
        Effect.all(Array.from({ length: 5 }, () => Effect.either(search({ query: "USDC", limit: 1 }))))
      )
      const refused = answers.flatMap((answer) => answer._tag === "Left" ? [answer.left.message] : [])
      expect(refused).toEqual([])
      for (const answer of answers) if (answer._tag === "Right") expect(answer.right.block).toBeGreaterThanOrEqual(head)
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})

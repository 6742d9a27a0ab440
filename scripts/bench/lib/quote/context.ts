/** What the quote benchmark's parts share: one devnet, one index runtime, the quote operation as HTTP runs it. */
import { Effect, Schema } from "effect"
import { ChainRpc } from "../../../../layers/ChainRpc.js"
import { Deployment } from "../../../../layers/Deployment.js"
import { type Address, RpcHex } from "../../../../schema/Chain.js"
import type { Manifest } from "../../../../schema/Manifest.js"
import type { QuoteResponse } from "../../../../schema/Quote.js"
import { QuoteRequest } from "../../../../schema/QuoteRequest.js"
import { ChainIndex } from "../../../../src/indexer/ChainIndex.js"
import type { IndexState } from "../../../../src/indexer/State.js"
import { quote } from "../../../../src/quote/Quote.js"
import { candidatePaths } from "../../../../src/routing/Candidates.js"
import { marketFromIndex } from "../../../../src/routing/Market.js"
import type { Path } from "../../../../src/routing/Path.js"
import { routeIdOf } from "../../../../src/routing/PlanShape.js"
import { addressOf } from "../../../../test/support/hex.js"
import { indexRuntime } from "../stack.js"

export type BenchRuntime = ReturnType<typeof indexRuntime>

export interface QuoteBench {
  readonly manifest: Manifest
  readonly runtime: BenchRuntime
  /** The index at the devnet's head; nothing moves the chain while the benchmark reads it. */
  readonly state: IndexState
  readonly token: (label: string) => Address
  readonly ask: (request: Record<string, unknown>) => Promise<QuoteResponse>
  /** The candidate paths the quote priced, by the answer's `routeId`s (the same search, same snapshot). */
  readonly pathsOf: (answer: QuoteResponse) => Array<Path>
}

export const quoteBench = async (manifest: Manifest): Promise<QuoteBench> => {
  const runtime = indexRuntime(Deployment.make(manifest))
  const state = await runtime.runPromise(Effect.gen(function*() {
    const head = Number(yield* (yield* ChainRpc).read(RpcHex, "eth_blockNumber"))
    return (yield* (yield* ChainIndex).waitFor(head)).state
  }))
  const token = (label: string) => addressOf(manifest.tokens![label]!)
  const hubs = [
    token("USDC"),
    ...manifest.tokenList.tokens.filter((t) => (t.tags ?? []).includes("hub")).map((t) => addressOf(t.address))
  ]
  const ask = (request: Record<string, unknown>) =>
    runtime.runPromise(Schema.decodeUnknown(QuoteRequest)(request).pipe(Effect.orDie, Effect.flatMap(quote)))
  const pathsOf = (answer: QuoteResponse) => {
    const known = new Map(
      candidatePaths(marketFromIndex(state), addressOf(answer.sell.address), addressOf(answer.buy.address), {
        maxHops: 3,
        hubs,
        allowVenue: () => true
      }).map((path) => [routeIdOf(path), path])
    )
    return answer.routes.map((route) => {
      const path = known.get(route.routeId)
      if (path === undefined) throw new Error(`route ${route.routeId} is not a candidate of the index`)
      return path
    })
  }
  return { manifest, runtime, state, token, ask, pathsOf }
}

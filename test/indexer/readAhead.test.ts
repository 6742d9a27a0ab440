/**
 * Token metadata read ahead of the apply (the catch-up reads a piece's new tokens while the next pieces
 * are read, against the state of that moment): a piece read ahead against an older state, a token whose
 * read-ahead is missing (late), and a token whose reads fail still give the state one batch read and
 * applied at once gives. Real reads from the shared devnet's tokens.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, HashMap, Option } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { type Hex, lowerAddress, lowerHex } from "../../schema/Chain.js"
import { applyEvents } from "../../src/indexer/Apply.js"
import { enrich, readAhead } from "../../src/indexer/Enrich.js"
import type { ChainEvent } from "../../src/indexer/Events.js"
import { emptyState, type IndexState } from "../../src/indexer/State.js"
import { sharedManifest, tokenAddress } from "../support/devnet.js"
import { v2Factory, v2Sources } from "../support/v2Sources.js"
import { canonical } from "./compare.js"

const manifest = sharedManifest()
const rpc = ChainRpc.make({ rpcUrl: manifest.rpcUrl, chainId: manifest.chainId })
const sources = v2Sources(lowerAddress(tokenAddress(manifest, "USDC")))
const token = (label: string) => lowerAddress(tokenAddress(manifest, label))
const noCode = lowerAddress("0x000000000000000000000000000000000000c0de")

let logIndex = 0
const created = (block: number, token0: Hex, token1: Hex, pair: `0x${string}`): ChainEvent => ({
  _tag: "V2PairCreated",
  at: { block, time: 1_000 + block, tx: lowerHex(`0x${block}`), logIndex: logIndex++ },
  emitter: v2Factory,
  token0,
  token1,
  pair: lowerAddress(pair)
})
const end = (block: number) => ({ number: block, hash: lowerHex(`0x${block}`), time: 1_000 + block })

const first = [created(1, token("WETH"), token("EURC"), "0x00000000000000000000000000000000000000c1")]
const second = [
  created(2, token("WBTC"), token("WETH"), "0x00000000000000000000000000000000000000c2"),
  created(2, noCode, token("EURC"), "0x00000000000000000000000000000000000000c3")
]

const applied = (state: IndexState, events: ReadonlyArray<ChainEvent>, block: number, known = {}) =>
  Effect.map(enrich(state, events, sources, 0, known), (context) => applyEvents(state, events, end(block), context))

describe("metadata read ahead of the apply", () => {
  it.effect("a piece read ahead against an older state, or whose read-ahead is late, applies as one batch does", () =>
    Effect.gen(function*() {
      const start = emptyState(1)
      // Both pieces read ahead against the empty state, before the first is applied.
      const aheadFirst = yield* readAhead(start, first, sources)
      const aheadSecond = yield* readAhead(start, second, sources)
      expect([...aheadSecond.keys()].sort()).toEqual([token("WBTC"), token("WETH"), noCode, token("EURC")].sort())
      const afterFirst = yield* applied(start, first, 1, { metadata: aheadFirst })
      const pieced = yield* applied(afterFirst, second, 2, { metadata: aheadSecond })
      // The second piece's read-ahead arrived without WBTC's: the apply reads it itself.
      const late = new Map([...aheadSecond].filter(([address]) => address !== token("WBTC")))
      const lateRead = yield* applied(afterFirst, second, 2, { metadata: late })
      const whole = yield* applied(start, [...first, ...second], 2)

      expect(canonical(pieced)).toBe(canonical(whole))
      expect(canonical(lateRead)).toBe(canonical(whole))
      const facts = (address: Hex) => Option.getOrThrow(HashMap.get(whole.tokens, address))
      expect(facts(token("WBTC"))).toMatchObject({ symbol: "WBTC", metadataOk: true })
      // No code to answer: indexed with placeholders, its pool kept.
      expect(facts(noCode)).toMatchObject({ symbol: "", metadataOk: false })
      expect(HashMap.has(whole.pools, lowerAddress("0x00000000000000000000000000000000000000c3"))).toBe(true)
    }).pipe(Effect.provideService(ChainRpc, rpc)))
})

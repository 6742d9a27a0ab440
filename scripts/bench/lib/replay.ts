/**
 * Replays raw logs through the indexer's catch-up path minus the network: decode, the enrichment
 * scan, apply, one `applyEvents` per range of `batchBlocks` blocks. Metadata comes from the generator
 * instead of `eth_call`s.
 */
import { HashMap } from "effect"
import { lowerHex } from "../../../schema/Chain.js"
import { applyEvents } from "../../../src/indexer/Apply.js"
import { decodeLog } from "../../../src/indexer/Decode.js"
import { needsOf } from "../../../src/indexer/Enrich.js"
import type { ChainEvent } from "../../../src/indexer/Events.js"
import { emptyState, type IndexState } from "../../../src/indexer/State.js"
import { sources, type SyntheticMarket } from "./synthetic.js"

export const replay = (market: SyntheticMarket, batchBlocks: number): IndexState => {
  let state = emptyState(1)
  let cursor = 0
  for (let from = 1; from <= market.lastBlock; from += batchBlocks) {
    const to = Math.min(market.lastBlock, from + batchBlocks - 1)
    const events: Array<ChainEvent> = []
    while (cursor < market.logs.length && Number(market.logs[cursor]!.blockNumber) <= to) {
      const log = market.logs[cursor++]!
      const event = decodeLog(log, sources, Number(log.blockTimestamp))
      if (event !== undefined) events.push(event)
    }
    needsOf(state, events, sources, 0)
    state = applyEvents(state, events, {
      number: to,
      hash: lowerHex(`0x${to.toString(16)}`),
      time: market.blockTime(to)
    }, {
      sources,
      metadata: market.metadata,
      senders: new Map(),
      pairFees: new Map(),
      tradesSince: 0
    })
  }
  return state
}

export const poolCount = (state: IndexState) => HashMap.size(state.pools)

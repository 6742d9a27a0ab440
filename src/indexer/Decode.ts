/**
 * Raw `eth_getLogs` entries → `ChainEvent`s, by the event layouts in `Layouts.ts`. The layouts are fixed,
 * so the words are sliced by hand: this is the hot loop of a catch-up and a generic ABI decoder costs
 * several times more per log. Logs with an unexpected shape (another contract reusing a topic) decode
 * to nothing.
 */
import { lowerHex } from "../../schema/Chain.js"
import type { ChainEvent } from "./Events.js"
import { topics } from "./Events.js"
import { type Layout, layouts } from "./Layouts.js"
import { positionOf, type RawLog, words } from "./LogWords.js"
import type { Sources } from "./Sources.js"

export type { RawLog } from "./LogWords.js"

/** A v3 fork's own Swap event, named in its venue entry: Uniswap's fields first, read the same way,
 * then the fork's own words, counted and not read. */
const forkV3Swap = (sources: Sources, topic0: `0x${string}`): Layout | undefined => {
  const count = sources.forkV3Swaps.get(lowerHex(topic0))
  return count === undefined ? undefined : { ...layouts.get(topics.V3Swap)!, words: count }
}

export const decodeLog = (log: RawLog, sources: Sources, time: number): ChainEvent | undefined => {
  const topic0 = log.topics[0]
  if (topic0 === undefined) return undefined
  const layout = layouts.get(topic0) ?? forkV3Swap(sources, topic0)
  if (layout === undefined || log.topics.length < layout.topics) return undefined
  if (layout.words !== undefined && words(log.data) !== layout.words) return undefined
  const emitter = lowerHex(log.address)
  if (layout.from !== undefined && !sources[layout.from].has(emitter)) return undefined
  return layout.read(log.topics, log.data, { at: positionOf(log, time), emitter })
}

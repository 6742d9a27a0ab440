/**
 * Following the head, once the pipeline (./Pipeline.ts) has caught up to the reorg window: steps until
 * the tip is the head, each up to a reorg window of blocks after the tip, checked against its parent and
 * applied one by one so each has its own rollback point (the engine and its invariants: ./Steps.ts).
 */
import { Chunk, Effect, Option, Ref, Stream } from "effect"
import type { Hex } from "../../schema/Chain.js"
import { applyEvents } from "./Apply.js"
import { blockLogs, blockSenders } from "./BlockReads.js"
import { type Header, headers, logPieces } from "./ChainSource.js"
import type { RawLog } from "./Decode.js"
import { enrich, readAhead } from "./Enrich.js"
import { pushRecent } from "./Recent.js"
import { logTopics } from "./Sources.js"
import { DAY_SEC } from "./State.js"
import {
  type Applied,
  decodeAll,
  type Engine,
  type HeadInfo,
  publish,
  retryInPlace,
  rollback,
  type Tip,
  tipOnChain
} from "./Steps.js"

/** Blocks after one too large to read whole during which senders are asked for one by one instead. */
const FULL_BLOCKS_SKIPPED = 32

/** The senders of `block`'s transactions from the block itself, unless blocks were too large of late. */
const sendersOf = (engine: Engine, block: Header) =>
  Effect.gen(function*() {
    if (block.number < (yield* Ref.get(engine.fullBlocksFrom))) return new Map<Hex, Hex>()
    const found = yield* blockSenders(block.hash)
    if (found !== undefined) return found
    yield* Ref.set(engine.fullBlocksFrom, block.number + FULL_BLOCKS_SKIPPED)
    return new Map<Hex, Hex>()
  })

/**
 * Up to a reorg window of blocks after the tip, each checked against its parent: headers first, then
 * the logs of the range, whose block hashes must be those headers' (else the chain moved in between and
 * the step is simply retried). Blocks are applied one by one so each has its own rollback point.
 */
const followStep = (engine: Engine, head: HeadInfo, known: Header) =>
  Effect.gen(function*() {
    const tip = yield* Ref.get(engine.tip)
    const from = tip.state.block + 1
    const to = Math.min(head.number, from + engine.settings.reorgWindow - 1)
    // The usual step on a live chain: the head is the tip's child, and its header is already known.
    const child = known.number === from && known.parentHash === tip.state.hash
    const fetched = child ? [known] : yield* headers(from, to)
    const chain: Array<Header> = []
    for (const h of fetched) {
      const parent = chain.length === 0 ? tip.state.hash : chain[chain.length - 1]!.hash
      if (h === undefined || (parent !== null && h.parentHash !== parent)) break
      chain.push(h)
    }
    if (chain.length === 0) {
      // Nothing links to the tip: either the head moved back or the tip's block left the chain.
      if (!(yield* tipOnChain(tip))) return yield* rollback(engine, head)
      return { kind: "idle", indexed: tip.state.block, logs: 0 } satisfies Applied
    }
    yield* engine.progress.fetched(from)
    const last = chain[chain.length - 1]!
    const hashes = new Map(chain.map((h) => [h.number, h.hash]))
    const times = new Map(chain.map((h) => [h.number, h.time]))
    // Each part of the step's logs is decoded, and its new tokens' metadata read, as it arrives, while
    // the next part is being read. A log from a block other than the headers' means the chain moved in
    // between: the step is simply taken again.
    // The logs are decoded before the read ahead and not held through it (./ChainSource.ts `Digest`).
    const read = (raw: ReadonlyArray<RawLog>) => {
      if (raw.some((log) => hashes.get(Number(log.blockNumber)) !== log.blockHash.toLowerCase())) {
        return Effect.succeed(undefined)
      }
      const logs = raw.length
      const events = decodeAll(raw, times, engine.sources)
      return Effect.map(readAhead(tip.state, events, engine.sources), (metadata) => ({ logs, events, metadata }))
    }
    // One block: its logs by hash (the node answers for exactly that block or fails) and, in the same
    // round trip, its transactions' senders, which the 24 h trade figures need.
    const [parts, knownSenders] = yield* (chain.length === 1
      ? Effect.all([
        Effect.flatMap(blockLogs(last.hash, logTopics(engine.sources), engine.topicSizer), (raw) =>
          Effect.map(read(raw), (part) => [part])),
        sendersOf(engine, last)
      ], { concurrency: 2 })
      : Effect.map(
        Stream.runCollect(
          logPieces(
            from,
            last.number,
            engine.sizer,
            logTopics(engine.sources),
            engine.settings.prefetch,
            (piece) =>
              read(piece.raw)
          ).pipe(Stream.buffer({ capacity: 1 }))
        ),
        (read) => [Chunk.toReadonlyArray(read), new Map<Hex, Hex>()] as const
      ))
    const done = parts.flatMap((part) => part === undefined ? [] : [part])
    if (done.length < parts.length) return { kind: "idle", indexed: tip.state.block, logs: 0 } satisfies Applied
    const events = done.flatMap((part) => part.events)
    const logCount = done.reduce((sum, part) => sum + part.logs, 0)
    const context = yield* enrich(tip.state, events, engine.sources, head.time - DAY_SEC, {
      metadata: new Map(done.flatMap((part) => [...part.metadata])),
      senders: knownSenders
    })
    let state = tip.state
    let recent = tip.recent
    let cursor = 0
    for (const block of chain) {
      const start = cursor
      while (cursor < events.length && events[cursor]!.at.block === block.number) cursor++
      state = applyEvents(state, events.slice(start, cursor), block, context)
      recent = pushRecent(recent, { number: block.number, hash: block.hash, state }, engine.settings.reorgWindow)
    }
    const next: Tip = { state, recent, epoch: tip.epoch }
    yield* Ref.set(engine.tip, next)
    yield* publish(engine, next, head)
    return { kind: "blocks", indexed: last.number, logs: logCount } satisfies Applied
  })

/** Steps until the tip is the head; a step that cannot progress ends it until the next head. */
export const follow = (engine: Engine, head: Header) => {
  const info: HeadInfo = { number: head.number, time: head.time }
  return Stream.repeatEffectOption(
    Effect.gen(function*() {
      const tip = yield* Ref.get(engine.tip)
      if (tip.state.block >= head.number) {
        const replaced = tip.state.hash !== null &&
          (tip.state.block > head.number || tip.state.hash !== head.hash) &&
          !(yield* tipOnChain(tip))
        if (!replaced) {
          // Already there (a restart on an idle chain): readers learn the head without a new block.
          yield* publishIfBehind(engine, tip, info)
          yield* engine.progress.reached(Option.getOrUndefined(yield* engine.chainHead.latest))
          return yield* Effect.fail(Option.none())
        }
        return yield* rollback(engine, info)
      }
      const applied = yield* retryInPlace(followStep(engine, info, head))
      if (applied.kind === "idle") return yield* Effect.fail(Option.none())
      return applied
    }).pipe(Effect.mapError((error) => (Option.isOption(error) ? error : Option.some(error))))
  )
}

const publishIfBehind = (engine: Engine, tip: Tip, head: HeadInfo) =>
  Effect.flatMap(
    engine.index.snapshot,
    (published) =>
      published.state === tip.state && published.head === head.number && !published.catchingUp
        ? Effect.void
        : publish(engine, tip, head)
  )

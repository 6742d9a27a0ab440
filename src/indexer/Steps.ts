/**
 * The indexer's steps, each one effect: fetch and apply a catch-up range, roll back a reorg (and, in
 * ./Follow.ts, follow the head by a few checked blocks). `Pipeline.ts` arranges them into a stream.
 */
import { type Context, Effect, Ref, Schedule } from "effect"
import type { Hex } from "../../schema/Chain.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import { applyEvents } from "./Apply.js"
import type { ChainHead } from "./ChainHead.js"
import type { ChainIndex } from "./ChainIndex.js"
import { type BatchSizer, type Header, header, type LogPiece } from "./ChainSource.js"
import { decodeLog, type RawLog } from "./Decode.js"
import { enrich, readAhead } from "./Enrich.js"
import type { ChainEvent } from "./Events.js"
import type { TokenMetadata } from "./Metadata.js"
import type { ProgressTracker } from "./Progress.js"
import { commonAncestor, pushRecent, type Recent, upTo } from "./Recent.js"
import type { Sources } from "./Sources.js"
import { DAY_SEC, emptyState, type IndexState } from "./State.js"

export interface IndexerSettings {
  readonly startBlock: number
  /** Blocks per `eth_getLogs` during catch-up, before any refusal shrinks it. */
  readonly batchBlocks: number
  /** Blocks behind the head that can still be reorganised; also the most a follow step checks. */
  readonly reorgWindow: number
  /** `eth_getLogs` calls under way at once (besides, the piece after the one being applied is read meanwhile). */
  readonly prefetch: number
}

export interface Tip {
  readonly state: IndexState
  readonly recent: Recent
  readonly epoch: number
}

export interface Engine {
  readonly settings: IndexerSettings
  readonly sources: Sources
  readonly tip: Ref.Ref<Tip>
  readonly sizer: BatchSizer
  /** Topics per `eth_getLogs` of one block: cut by answers too large, grown back by blocks read. */
  readonly topicSizer: BatchSizer
  /** The first block whose transactions are asked for whole again, after a block too large for it. */
  readonly fullBlocksFrom: Ref.Ref<number>
  readonly progress: ProgressTracker
  readonly index: Context.Tag.Service<typeof ChainIndex>
  readonly chainHead: Context.Tag.Service<typeof ChainHead>
}

export interface HeadInfo {
  readonly number: number
  readonly time: number
}

export interface Applied {
  readonly kind: "batch" | "blocks" | "rollback" | "idle"
  readonly indexed: number
  readonly logs: number
}

/** A piece of the catch-up as decoded on arrival: its events, and how many logs they came from. */
export interface DecodedPiece {
  readonly from: number
  readonly to: number
  readonly logs: number
  readonly events: ReadonlyArray<ChainEvent>
}

/** A decoded piece with its end block's header and the metadata of its new tokens, read ahead of its apply. */
export interface FetchedRange extends DecodedPiece {
  readonly end: Header
  readonly metadata: ReadonlyMap<Hex, TokenMetadata>
}

export const decodeAll = (raw: ReadonlyArray<RawLog>, times: ReadonlyMap<number, number>, sources: Sources) => {
  const events: Array<ChainEvent> = []
  for (const log of raw) {
    const event = decodeLog(log, sources, times.get(Number(log.blockNumber)) ?? 0)
    if (event !== undefined) events.push(event)
  }
  return events
}

/** Block times of the logs: from the logs themselves when the node includes them, else from headers. */
const timesOf = (raw: ReadonlyArray<RawLog>, known: ReadonlyArray<Header>) =>
  Effect.gen(function*() {
    const times = new Map<number, number>(known.map((h) => [h.number, h.time]))
    const missing = new Set<number>()
    for (const log of raw) {
      const block = Number(log.blockNumber)
      if (times.has(block)) continue
      if (log.blockTimestamp !== undefined) times.set(block, Number(log.blockTimestamp))
      else missing.add(block)
    }
    const fetched = yield* Effect.forEach(missing, (block) => header(block), { concurrency: 32 })
    for (const h of fetched) if (h !== undefined) times.set(h.number, h.time)
    return times
  })

/**
 * A step whose read failed is taken again where it stands, a few times, before the stream gives up: a
 * lost answer then costs one call, not the ranges fetched ahead of it.
 */
export const IN_PLACE = Schedule.intersect(Schedule.exponential("100 millis"), Schedule.recurs(3))

export const retryInPlace = <A, R>(step: Effect.Effect<A, RpcUnavailable, R>) => Effect.retry(step, IN_PLACE)

export const publish = (engine: Engine, tip: Tip, head: HeadInfo) =>
  engine.index.publish({
    state: tip.state,
    head: head.number,
    headTime: head.time,
    catchingUp: head.number - tip.state.block > engine.settings.reorgWindow,
    epoch: tip.epoch
  })

/**
 * A piece of the catch-up decoded as it arrives (`logPieces`' digest): its logs are let go here, and
 * only its events wait for the pieces before it.
 */
export const decodePiece = (engine: Engine) => (piece: LogPiece) =>
  Effect.map(timesOf(piece.raw, []), (times): DecodedPiece => ({
    from: piece.from,
    to: piece.to,
    logs: piece.raw.length,
    events: decodeAll(piece.raw, times, engine.sources)
  }))

/**
 * A decoded piece of the catch-up: its end block's header, and the metadata of the tokens it
 * introduces, read now rather than when it is applied, so that those reads overlap the reads of the
 * pieces after it.
 */
export const fetchRange = (engine: Engine, piece: DecodedPiece) =>
  Effect.gen(function*() {
    yield* engine.progress.fetched(piece.from)
    const end = yield* header(piece.to)
    if (end === undefined) {
      // The chain got shorter since the head was read: the next head sorts it out.
      return yield* new RpcUnavailable({
        message: `block ${piece.to} below the head is missing`,
        hint: "the chain reorganised"
      })
    }
    const metadata = yield* readAhead((yield* Ref.get(engine.tip)).state, piece.events, engine.sources)
    const fetched: FetchedRange = { ...piece, end, metadata }
    return fetched
  })

export const applyRange = (engine: Engine, range: FetchedRange, head: HeadInfo) =>
  Effect.gen(function*() {
    const tip = yield* Ref.get(engine.tip)
    // A rollback between fetch and apply moved the tip: this range no longer follows it.
    if (tip.state.block !== range.from - 1) return { kind: "idle", indexed: tip.state.block, logs: 0 } satisfies Applied
    const context = yield* enrich(tip.state, range.events, engine.sources, head.time - DAY_SEC, {
      metadata: range.metadata
    })
    const end = { number: range.to, hash: range.end.hash, time: range.end.time }
    const state = applyEvents(tip.state, range.events, end, context)
    const next: Tip = {
      state,
      recent: pushRecent(tip.recent, { number: range.to, hash: range.end.hash, state }, engine.settings.reorgWindow),
      epoch: tip.epoch
    }
    yield* Ref.set(engine.tip, next)
    yield* publish(engine, next, head)
    return { kind: "batch", indexed: range.to, logs: range.logs } satisfies Applied
  })

/**
 * Rolls back to the newest recent block the chain still has. Deeper than the window, nothing is
 * known to be on the chain any more: the index starts over from the start block.
 */
export const rollback = (engine: Engine, head: HeadInfo) =>
  Effect.gen(function*() {
    const tip = yield* Ref.get(engine.tip)
    const onChain = yield* Effect.forEach(tip.recent, (entry) => header(entry.number), { concurrency: 32 })
    const hashes = new Map<number, Hex>(onChain.flatMap((h) => (h === undefined ? [] : [[h.number, h.hash] as const])))
    const ancestor = commonAncestor(tip.recent, hashes)
    const next: Tip = ancestor === undefined
      ? { state: emptyState(engine.settings.startBlock), recent: [], epoch: tip.epoch + 1 }
      : { state: ancestor.state, recent: upTo(tip.recent, ancestor.number), epoch: tip.epoch + 1 }
    if (ancestor === undefined) {
      yield* Effect.logError(
        `reorg deeper than ${engine.settings.reorgWindow} blocks at ${tip.state.block}; re-indexing`
      )
    } else {
      yield* Effect.logWarning(`reorg: rolled back from block ${tip.state.block} to ${ancestor.number}`)
    }
    yield* Ref.set(engine.tip, next)
    yield* engine.progress.rolledBack(next.state.block)
    yield* publish(engine, next, head)
    return { kind: "rollback", indexed: next.state.block, logs: 0 } satisfies Applied
  })

/** Whether the block the tip stands on is still the chain's block at that height. */
export const tipOnChain = (tip: Tip) =>
  tip.state.hash === null
    ? Effect.succeed(true)
    : Effect.map(header(tip.state.block), (h) => h?.hash === tip.state.hash)

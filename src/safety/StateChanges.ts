/**
 * Which contracts had their state written in each block, from the node's own replay of the block (a
 * state diff: storage and code written, ./BlockWrites.ts). A verdict measured at an earlier block is
 * shown at a later one only while nothing it depends on was written in between (./Standing.ts).
 *
 * Blocks are traced as the index applies them, off the request path; a reader asking for a block not
 * traced yet traces it then (one trace per block, shared). A node that can trace in neither way (no
 * `trace_*` or `debug_*` namespace) makes every answer unknown: verdicts then stand only at the block
 * they were measured at.
 * After a reorg the traces of the abandoned blocks are dropped.
 *
 * Past MAX_SPAN blocks a verdict is not compared block by block: the blocks traced as the index applies
 * them also keep, per contract, the last block that wrote it, which answers for any span the follower
 * traced without a gap. A token untouched for hours keeps its verdict at the head, unmeasured.
 */
import { Cache, Effect, Layer, Option, Ref, Stream } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import type { Hex } from "../../schema/Chain.js"
import { ChainIndex } from "../indexer/ChainIndex.js"
import { blockWrites } from "./BlockWrites.js"

/** Blocks further apart than this are not compared one by one: the verdict is measured again. */
const MAX_SPAN = 256

/**
 * Following starts only once the index is within this many blocks of the head: the last stretch of a
 * catch-up (up to the reorg window, 64 blocks, past the point where the index stops counting as
 * catching up) was traced whole right after a start, each block's trace as large as its writes
 * (2.75 MB for a block of 100 new pairs, code included), all of it parsed on the event loop the first
 * requests share. A span that crosses the stretch (a verdict measured in it) traces its blocks when asked.
 */
const EAGER_BEHIND_HEAD = 8

/** Span unions kept (below): one per block a shown verdict was measured at, recently asked for. */
const SPANS_KEPT = 256

/**
 * Contracts whose last write is kept (about 150 bytes each): a chain's worth of tokens and pools. Past
 * it the longest untouched are forgotten, and with them what is known of blocks up to their last write.
 */
const WRITES_KEPT = 100_000

export class StateChanges extends Effect.Service<StateChanges>()("StateChanges", {
  scoped: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const index = yield* ChainIndex
    const { traceable, writtenAt: trace } = yield* blockWrites(rpc)
    const traces = yield* Cache.make({ capacity: 4 * MAX_SPAN, timeToLive: "1 hour", lookup: trace })

    /** Written in `block`, or none when the node cannot say (a failed trace is asked again next time). */
    const writtenAt = (block: number) =>
      Effect.flatMap(traceable, (can) =>
        can
          ? traces.get(block).pipe(
            Effect.asSome,
            Effect.catchAll(() => Effect.as(traces.invalidate(block), Option.none()))
          )
          : Effect.succeedNone)

    // Every search asks for the spans from the few blocks its verdicts were measured at to the head, again at
    // each new head: a span's union is kept by its first block and extended by the blocks the chain added
    // since, so a call reads what changed since the last one, not every block of the span (up to MAX_SPAN).
    const spans = new Map<number, { readonly upTo: number; readonly written: ReadonlySet<Hex> }>()
    const keep = (after: number, span: { readonly upTo: number; readonly written: ReadonlySet<Hex> }) => {
      spans.delete(after)
      spans.set(after, span)
      // The least recently extended go first: verdicts measured long ago are past MAX_SPAN anyway.
      if (spans.size > SPANS_KEPT) spans.delete(spans.keys().next().value!)
    }

    // Per contract, the last block that wrote it, oldest first (a write moves it to the end). Every write
    // in the blocks after `known.after` up to `known.upTo` is here: the blocks the follower traced in a row.
    const lastWritten = new Map<Hex, number>()
    let known = { after: -1, upTo: -1 }
    const record = (block: number, written: Option.Option<ReadonlySet<Hex>>) => {
      // A block the node could not say: nothing before it is known.
      if (Option.isNone(written)) {
        known = { after: block, upTo: block }
        return
      }
      for (const address of written.value) {
        lastWritten.delete(address)
        lastWritten.set(address, block)
      }
      known = { after: known.after, upTo: block }
      while (lastWritten.size > WRITES_KEPT) {
        const [address, at] = lastWritten.entries().next().value!
        lastWritten.delete(address)
        known = { after: Math.max(known.after, at), upTo: known.upTo }
      }
    }
    // After a rollback to `block`: a contract written in an abandoned block counts as written at `block`
    // (its write before that is not kept), so only verdicts measured there or later stand on it.
    const rolledBack = (block: number) => {
      for (const [address, at] of lastWritten) if (at > block) lastWritten.set(address, block)
      known = { after: Math.min(known.after, block), upTo: Math.min(known.upTo, block) }
    }

    // Off the request path: each block traced as the index applies it; a reorg drops what it replaced.
    // A rollback is seen even while the index catches up (a reorg deeper than its window starts over).
    // Following starts at the first block the index serves from within EAGER_BEHIND_HEAD of the head, and
    // again after a gap of more than MAX_SPAN blocks: spans into either are compared one by one, on demand.
    const NOT_FOLLOWING = -1
    const followed = yield* Ref.make({ block: NOT_FOLLOWING, epoch: -1 })
    yield* index.changes.pipe(
      Stream.runForEach((snapshot) =>
        Effect.gen(function*() {
          const last = yield* Ref.get(followed)
          const block = snapshot.state.block
          const nearHead = !snapshot.catchingUp && snapshot.head - block < EAGER_BEHIND_HEAD
          if (last.epoch !== snapshot.epoch) {
            yield* Ref.set(followed, { block: nearHead ? block : NOT_FOLLOWING, epoch: snapshot.epoch })
            for (const traced of yield* traces.keys) if (traced > block) yield* traces.invalidate(traced)
            spans.clear()
            rolledBack(block)
            return
          }
          if (snapshot.catchingUp) return
          if (last.block === NOT_FOLLOWING && !nearHead) return
          yield* Ref.set(followed, { block, epoch: snapshot.epoch })
          if (last.block === NOT_FOLLOWING || block - last.block > MAX_SPAN) {
            known = { after: block, upTo: block }
            return
          }
          const blocks = Array.from({ length: block - last.block }, (_, i) => last.block + 1 + i)
          const written = yield* Effect.forEach(blocks, writtenAt, { concurrency: 8 })
          written.forEach((set, i) => record(blocks[i]!, set))
        })
      ),
      Effect.forkScoped
    )

    /**
     * The contracts written in the blocks after `after` up to `upTo`; none when the node cannot say
     * for one of them, or the span is too long to compare.
     */
    const writtenBetween = (after: number, upTo: number): Effect.Effect<Option.Option<ReadonlySet<Hex>>> => {
      if (upTo <= after) return Effect.succeedSome(new Set())
      if (upTo - after > MAX_SPAN) return Effect.succeedNone
      const kept = spans.get(after)
      const extending = kept !== undefined && kept.upTo <= upTo
      if (extending && kept.upTo === upTo) return Effect.succeedSome(kept.written)
      const from = extending ? kept.upTo + 1 : after + 1
      const blocks = Array.from({ length: upTo - from + 1 }, (_, i) => from + i)
      return Effect.forEach(blocks, writtenAt, { concurrency: 8 }).pipe(
        Effect.map((sets) => Option.all(sets)),
        Effect.map(Option.map((sets) => {
          const written = new Set(extending ? kept.written : [])
          for (const set of sets) for (const address of set) written.add(address)
          // An older head's span is answered, not kept: the kept one already reaches further.
          if (kept === undefined || extending) keep(after, { upTo, written })
          return written
        }))
      )
    }

    /** Whether none of `addresses` was written in the span, compared block by block: false when unknown. */
    const untouchedInSpan = (addresses: ReadonlyArray<Hex>, after: number, upTo: number) =>
      Effect.map(
        writtenBetween(after, upTo),
        Option.match({
          onNone: () => false,
          onSome: (written) => addresses.every((address) => !written.has(address))
        })
      )

    return {
      writtenBetween,
      /**
       * Whether none of `addresses` was written in the blocks after `after` up to `upTo`; false when the
       * node cannot say. Any span the follower traced in a row is answered from the last writes, however
       * long; only the blocks past the follower (or a span it did not trace) are compared one by one.
       */
      untouchedBetween: (addresses: ReadonlyArray<Hex>, after: number, upTo: number): Effect.Effect<boolean> => {
        if (upTo <= after) return Effect.succeed(true)
        if (after < known.after || after > known.upTo) return untouchedInSpan(addresses, after, upTo)
        const followedTo = Math.min(upTo, known.upTo)
        for (const address of addresses) {
          const at = lastWritten.get(address)
          if (at === undefined || at <= after) continue
          // Written after `upTo` (an older head asked): whether also before it is not kept.
          if (at > followedTo) return untouchedInSpan(addresses, after, upTo)
          return Effect.succeed(false)
        }
        return followedTo === upTo ? Effect.succeed(true) : untouchedInSpan(addresses, followedTo, upTo)
      }
    }
  })
}) {
  /** For a program with no node to ask (it publishes its own snapshots): verdicts stand at their own block only. */
  static readonly layerUnknowable = Layer.succeed(
    StateChanges,
    StateChanges.make({
      writtenBetween: (after, upTo) => upTo <= after ? Effect.succeedSome(new Set()) : Effect.succeedNone,
      untouchedBetween: (_, after, upTo) => Effect.succeed(upTo <= after)
    })
  )
}

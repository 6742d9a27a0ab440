/**
 * The indexed state of the chain, as readers see it: one immutable snapshot, swapped whole by the
 * indexer after each block (or catch-up batch). Whoever reads a snapshot reads one block, however long
 * it holds on to it; `changes` lets derived indexes follow along.
 */
import { Effect, Option, Stream, SubscriptionRef } from "effect"
import { emptyState, type IndexState } from "./State.js"

export interface IndexSnapshot {
  readonly state: IndexState
  /** Chain head when the snapshot was published, and that block's time. */
  readonly head: number
  readonly headTime: number
  /** Behind the head by more than the reorg window: answers would miss recent history. */
  readonly catchingUp: boolean
  /** Counts rollbacks; an index derived from an older epoch may hold tokens that no longer exist. */
  readonly epoch: number
}

export class ChainIndex extends Effect.Service<ChainIndex>()("ChainIndex", {
  effect: Effect.gen(function*() {
    const ref = yield* SubscriptionRef.make<IndexSnapshot>({
      state: emptyState(0),
      head: 0,
      headTime: 0,
      catchingUp: true,
      epoch: 0
    })
    return {
      snapshot: SubscriptionRef.get(ref),
      /** The current snapshot, then every new one. */
      changes: ref.changes,
      publish: (snapshot: IndexSnapshot) => SubscriptionRef.set(ref, snapshot),
      /** Completes with the first snapshot at or past `block` (tests, and callers that wrote a block). */
      waitFor: (block: number) =>
        ref.changes.pipe(
          Stream.filter((snapshot) => snapshot.state.block >= block),
          Stream.runHead,
          Effect.map(Option.getOrThrow)
        )
    }
  })
}) {}

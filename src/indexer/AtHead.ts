/**
 * The index snapshot an answer is computed from: at the chain's head as of the request's arrival, or
 * no answer. The head is read when the operation starts (`ChainHead.atArrival`, a read shared with
 * concurrent callers); the snapshot is the index's once it has applied that block (the same block, or
 * a later one). Waiting is bounded by `HEAD_WAIT_MS`; past it, and whenever the service cannot answer
 * current data (`down`, see ./Freshness.ts), the operation answers 503 `rpc_unavailable`, never an
 * older block as if it were current. Everything one answer reads (pricing, the safety round trip,
 * readiness, the taker simulation) reads this snapshot's block.
 *
 * `overlapped` does not wait for the head read before working: the head read is a round trip to the
 * node, and most of the time the published snapshot already answers for the head it brings back. The
 * work runs on the published snapshot while the head is read; its outcome stands only if that snapshot
 * answers for the head, else it is dropped (interrupted if still running) and the work runs once more
 * on the snapshot at the head, as `snapshot` finds it. The answer is the same as `snapshot`'s; only a
 * read may be overlapped, since a dropped run must leave nothing seen or charged.
 *
 * Programs that publish snapshots themselves (a benchmark over a recorded state, an embedder with its
 * own feed) run no indexer and answer for their own data: `AtHead.layerPublished`.
 */
import { Context, Duration, Effect, Fiber, Layer, Option, Stream } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import { ChainHead } from "./ChainHead.js"
import { ChainIndex, type IndexSnapshot } from "./ChainIndex.js"
import type { Header } from "./ChainSource.js"
import { currentFreshness } from "./Freshness.js"
import { Indexer } from "./Indexer.js"

/** Whether `snapshot` answers for `head`: its block, or a later one. */
export const answersFor = (snapshot: IndexSnapshot, head: Header) =>
  !snapshot.catchingUp &&
  (snapshot.state.block > head.number || (snapshot.state.block === head.number && snapshot.state.hash === head.hash))

/** One turn of the event loop: the I/O queued before it (a socket write) is flushed by its end. */
const turn = Effect.async<void>((resume) => {
  const pending = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(pending))
})

/**
 * Lets the head read leave the process before CPU-bound work holds the thread. A forked read is not
 * sent at once: its fiber runs when the scheduler gets to it, and the HTTP client defers its write once
 * more. After one turn the request was written in 13 of 400 measured calls, after two in all 400
 * (scripts/bench/lib/quote/latency.ts compares the warm quote with and without the overlap).
 */
const afterPendingIo = Effect.zipRight(turn, turn)

export interface AtHeadService {
  /** The snapshot at or past the head as of now. */
  readonly snapshot: Effect.Effect<IndexSnapshot, RpcUnavailable>
  /** `read` on the snapshot at or past the head as of now, started while the head is read (see above). */
  readonly overlapped: <A, E, R>(
    read: (snapshot: IndexSnapshot) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | RpcUnavailable, R>
}

export class AtHead extends Context.Tag("AtHead")<AtHead, AtHeadService>() {
  static readonly Default = Layer.effect(
    AtHead,
    Effect.gen(function*() {
      const index = yield* ChainIndex
      const chainHead = yield* ChainHead
      const indexer = yield* Indexer
      const wait = Duration.millis((yield* AppConfig).indexer.headWaitMillis)
      const refuse = (message: string, hint: string) => new RpcUnavailable({ message, hint })

      const answering = Effect.gen(function*() {
        const { freshness } = yield* Effect.provideService(
          Effect.provideService(currentFreshness, Indexer, indexer),
          ChainHead,
          chainHead
        )
        if (freshness.status === "down") {
          return yield* refuse("the service cannot answer from a current view of the chain", freshness.reason ?? "")
        }
      })
      /** The first snapshot that answers for `head`, within `HEAD_WAIT_MS`. */
      const snapshotFor = (head: Header) =>
        Effect.flatMap(
          index.snapshot,
          (published) =>
            answersFor(published, head) ? Effect.succeed(published) : index.changes.pipe(
              Stream.filter((candidate) => answersFor(candidate, head)),
              Stream.runHead,
              Effect.flatMap(Option.match({
                onNone: () => Effect.fail(refuse("the index stopped", "retry shortly")),
                onSome: Effect.succeed
              })),
              Effect.timeoutFail({
                duration: wait,
                onTimeout: () =>
                  refuse(
                    `the index did not reach the chain's head (block ${head.number}) within ${Duration.format(wait)}`,
                    "retry shortly: an answer is only given at the head of the chain"
                  )
              })
            )
        )

      const snapshot = answering.pipe(
        Effect.zipRight(chainHead.atArrival),
        Effect.flatMap(snapshotFor),
        Effect.withSpan("AtHead.snapshot")
      )

      const overlapped = <A, E, R>(read: (snapshot: IndexSnapshot) => Effect.Effect<A, E, R>) =>
        Effect.gen(function*() {
          yield* answering
          // Scoped: neither fiber outlives the answer, whichever way it ends.
          const head = yield* Effect.forkScoped(chainHead.atArrival)
          const published = yield* index.snapshot
          const early = published.catchingUp
            ? undefined
            : yield* Effect.forkScoped(Effect.zipRight(afterPendingIo, read(published)))
          const arrival = yield* Fiber.join(head)
          if (early !== undefined && answersFor(published, arrival)) return yield* Fiber.join(early)
          if (early !== undefined) yield* Fiber.interrupt(early)
          return yield* Effect.flatMap(snapshotFor(arrival), read)
        }).pipe(Effect.scoped, Effect.withSpan("AtHead.overlapped"))

      return { snapshot, overlapped } satisfies AtHeadService
    })
  )

  /** The snapshot as published, for programs that publish their own (no indexer, no head to wait for). */
  static readonly layerPublished = Layer.effect(
    AtHead,
    Effect.map(ChainIndex, (index) => ({
      snapshot: index.snapshot,
      overlapped: (read) => Effect.flatMap(index.snapshot, read)
    } satisfies AtHeadService))
  )
}

/**
 * The index snapshot an answer is computed from: at the chain's head as of the request's arrival, or
 * no answer. The head is read when the operation starts (`ChainHead.atArrival`, a read shared with
 * concurrent callers); the snapshot is the index's once it has applied that block (the same block, or
 * a later one). Waiting is bounded by `HEAD_WAIT_MS`; past it, and whenever the service cannot answer
 * current data (`down`, see ./Freshness.ts), the operation answers 503 `rpc_unavailable`, never an
 * older block as if it were current. Everything one answer reads (pricing, the safety round trip,
 * readiness, the taker simulation) reads this snapshot's block.
 *
 * One request reads the head once: within `AtHead.oneArrival` (the operation interpreter wraps every
 * call in it), the snapshot the first read found answers every later ask, so a paid call's pre-payment
 * check and its run read the same block, the head as of the request's arrival.
 *
 * Programs that publish snapshots themselves (a benchmark over a recorded state, an embedder with its
 * own feed) run no indexer and answer for their own data: `AtHead.layerPublished`.
 */
import { Context, Duration, Effect, FiberRef, Layer, Option, Stream } from "effect"
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

/** The snapshot a request's first ask found, shared by its later asks (`AtHead.oneArrival`). */
interface Arrival {
  snapshot: IndexSnapshot | undefined
}

const arrival = FiberRef.unsafeMake<Arrival | undefined>(undefined)

export interface AtHeadService {
  /** The snapshot at or past the head as of now. */
  readonly snapshot: Effect.Effect<IndexSnapshot, RpcUnavailable>
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

      const freshnessNow = Effect.provideService(
        Effect.provideService(currentFreshness, Indexer, indexer),
        ChainHead,
        chainHead
      )
      /**
       * The head as of now, or a refusal. `down` refuses at once, without a chain call (a chain that stopped
       * answering must not hold every request for a transport timeout), except when only the index's age
       * is against it while the chain last answered: on an idle chain that age is renewed only by a head
       * read, and the poll's may be a minute apart or held up behind a long catch-up, so this request's own
       * read, bounded by the head wait, decides.
       */
      const headNow = Effect.flatMap(freshnessNow, ({ freshness, input }) => {
        if (freshness.status !== "down") return chainHead.atArrival
        const refused = refuse("the service cannot answer from a current view of the chain", freshness.reason ?? "")
        const onlyAged = !input.progress.catchingUp && freshness.indexAgeSec !== null && input.probe?.ok !== false
        return onlyAged
          ? Effect.timeoutFail(chainHead.atArrival, { duration: wait, onTimeout: () => refused })
          : Effect.fail(refused)
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

      const atHead = headNow.pipe(
        Effect.flatMap(snapshotFor),
        Effect.withSpan("AtHead.snapshot")
      )
      const snapshot = Effect.flatMap(FiberRef.get(arrival), (request) =>
        request?.snapshot !== undefined
          ? Effect.succeed(request.snapshot)
          : Effect.tap(atHead, (found) => {
            if (request !== undefined) request.snapshot = found
          }))

      return { snapshot } satisfies AtHeadService
    })
  )

  /** `effect` as one request: every snapshot it asks for is the one its first ask found. */
  static readonly oneArrival = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => Effect.locally(effect, arrival, { snapshot: undefined }))

  /** The snapshot as published, for programs that publish their own (no indexer, no head to wait for). */
  static readonly layerPublished = Layer.effect(
    AtHead,
    Effect.map(ChainIndex, (index) => ({ snapshot: index.snapshot } satisfies AtHeadService))
  )
}

/**
 * The chain's head as this process knows it, from three sources: pushed by the node (`newHeads`),
 * polled (the safety net of a socket that died quietly, and the RPC probe health reports), and asked
 * by an operation when its request arrives. Every head seen, whatever its source, goes to the indexer
 * at once, so an operation that learns of a block first does not wait for the next poll to have it
 * indexed.
 *
 * `atArrival` is how an operation learns the head as of its arrival. A head pushed or polled earlier
 * may already be old: only a read sent after the request arrived proves the head at that moment.
 * Reads are coalesced: a caller shares a read sent after it arrived, so however many requests come at
 * once, at most one head read is in flight and one waits behind it; the requests of one event loop turn
 * share one read.
 */
import { Clock, Duration, Effect, Option, PubSub, Ref, Runtime, Schedule, Stream } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { lowerHex } from "../../schema/Chain.js"
import type { RpcUnavailable } from "../../schema/Errors.js"
import { type Header, latestHeader } from "./ChainSource.js"
import { awaitRound, awaitRoundWithin, type HeadRound, makeRound, settle } from "./HeadRound.js"
import { type HeadSource, nextObserved, type ObservedHead, type Probe } from "./Observed.js"
import { makePace } from "./Pace.js"

export type { HeadSource, ObservedHead, Probe } from "./Observed.js"

/** One head read at arrival that landed, as the callers that waited for it know it: by identity. */
export type HeadRead = object

const SEEN_KEPT = 256

export class ChainHead extends Effect.Service<ChainHead>()("ChainHead", {
  scoped: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const { indexer } = yield* AppConfig
    // The newest head, renewed by every read that sees it again (an index that has it is current as of
    // then); only a head that becomes the newest is news to the indexer (`heads`), so a quote's head
    // read wakes no stream. Set and published in one synchronous step: in the order heads became newest.
    let observed: ObservedHead | undefined
    const newHeads = yield* PubSub.unbounded<Header>()
    const probe = yield* Ref.make<Probe | null>(null)
    const pace = yield* makePace(indexer.pollMillis)
    // When each higher head was first seen, oldest first: how long the index has trailed the head.
    const firstSeen = yield* Ref.make<ReadonlyArray<{ readonly number: number; readonly at: number }>>([])

    /** `header` seen from `source`, in an answer to a read sent at `sentAt` (ms). */
    const observe = (header: Header, source: HeadSource, sentAt: number) =>
      Effect.gen(function*() {
        const at = yield* Clock.currentTimeMillis
        const { before, fresh } = yield* Effect.sync(() => {
          const before = observed
          observed = nextObserved(before, { header, at, source }, sentAt)
          // Only a head that became the newest (not one seen again, not a stale one) is new.
          const fresh = observed.header.hash === header.hash && before?.header.hash !== header.hash
          if (fresh) newHeads.unsafeOffer(header)
          return { before, fresh }
        })
        if (!fresh) return
        if (before === undefined || header.number > before.header.number) yield* pace.saw(header.number, at)
        yield* Ref.update(firstSeen, (seen) => [
          ...seen.filter((entry) => entry.number < header.number).slice(-(SEEN_KEPT - 1)),
          { number: header.number, at }
        ])
      })

    const read = latestHeader().pipe(Effect.provideService(ChainRpc, rpc))
    const readAs = (source: HeadSource) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (sentAt) => read.pipe(Effect.tap((header) => observe(header, source, sentAt)))
      )

    // At most one read at arrival is in flight and one waits to be sent. A caller joins the waiting one,
    // which is sent at the end of the event loop's turn (so every request parsed in the same turn shares
    // it) or, while a read is in flight, when that one lands: a read in flight was sent before the caller
    // came, so it cannot be used. Either way it is sent after each of its callers arrived. Its callers
    // wait as ./HeadRound.ts says. Reads run in the service's scope, so a caller that goes away does not
    // cancel others' read.
    const scope = yield* Effect.scope
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    let inFlight = false
    let waiting: HeadRound | undefined
    let turnEnd: ReturnType<typeof setImmediate> | undefined
    const sendWaiting = () => {
      turnEnd = undefined
      const round = waiting
      if (inFlight || round === undefined) return
      waiting = undefined
      inFlight = true
      runFork(
        readAs("asked").pipe(
          Effect.exit,
          Effect.map((exit) => {
            settle(round, exit)
            inFlight = false
            sendWaiting()
          })
        ),
        { scope }
      )
    }
    yield* Effect.addFinalizer(() => Effect.sync(() => turnEnd !== undefined && clearImmediate(turnEnd)))
    /** The round a caller arriving now shares. */
    const roundAtArrival = Effect.sync(() => {
      const round = waiting ??= makeRound()
      if (!inFlight) turnEnd ??= setImmediate(sendWaiting)
      return round
    })
    const atArrival: Effect.Effect<Header, RpcUnavailable> = Effect.flatMap(roundAtArrival, awaitRound)
    const headWithin = (bound: Duration.DurationInput): Effect.Effect<HeadRead | undefined> =>
      Effect.flatMap(roundAtArrival, (round) => awaitRoundWithin(round, bound))

    const recordProbe = (update: (last: Probe | null, at: number) => Probe) =>
      Effect.flatMap(Clock.currentTimeMillis, (at) => Ref.update(probe, (last) => update(last, at)))
    const poll = readAs("polled").pipe(
      Effect.timed,
      Effect.flatMap(([took, header]) =>
        recordProbe((_, at) => ({
          at,
          ok: true,
          latencyMs: Math.round(Duration.toMillis(took)),
          block: header.number,
          error: null
        }))
      ),
      Effect.catchAll((error) =>
        recordProbe((last, at) => ({
          at,
          ok: false,
          latencyMs: null,
          block: last?.block ?? null,
          error: error.hint ?? error.message
        }))
      ),
      Effect.zipRight(Effect.flatMap(pace.pollInterval, Effect.sleep)),
      Effect.forever
    )
    yield* Effect.forkScoped(poll)

    // Pushed heads, when the node offers a subscription; a socket that fails is opened again, and the
    // poll keeps the head moving meanwhile.
    const push = (pushed: NonNullable<Option.Option.Value<typeof rpc.heads>>) =>
      pushed.pipe(
        Stream.runForEach((head) =>
          Effect.flatMap(Clock.currentTimeMillis, (at) =>
            observe(
              {
                number: Number(head.number),
                hash: lowerHex(head.hash),
                parentHash: lowerHex(head.parentHash),
                time: Number(head.timestamp)
              },
              "pushed",
              at
            ))
        ),
        Effect.catchAll((error) => Effect.logDebug(`newHeads: ${error.hint ?? error.message}; polling meanwhile`)),
        Effect.repeat(Schedule.exponential("500 millis").pipe(Schedule.union(Schedule.spaced("10 seconds"))))
      )
    if (Option.isSome(rpc.heads)) yield* Effect.forkScoped(push(rpc.heads.value))

    return {
      /** The newest head observed, from any source; none before the first. */
      latest: Effect.sync(() => Option.fromNullable(observed)),
      /** The head as of now: a read sent after this effect started, shared with concurrent callers. */
      atArrival,
      /**
       * Waits for that read at most `bound`, whatever it answers (health reports what it knows then): the
       * read once it landed, one object shared by every caller that waited for it, or undefined when the
       * bound passed first.
       */
      headWithin,
      /** The last poll's outcome: whether the chain answers, and how fast. */
      probe: Ref.get(probe),
      /** Every new head (another block than the last one seen), for the indexer. */
      heads: Stream.unwrapScoped(Effect.map(Stream.fromPubSub(newHeads, { scoped: true }), (published) =>
        // Subscribed first, then the newest read: a head published in between comes twice, never not at all.
        Stream.concat(Stream.fromIterable(observed === undefined ? [] : [observed.header]), published))).pipe(
          Stream.changesWith((a, b) => a.hash === b.hash)
        ),
      /** Since when (ms) the head has been above `indexed`: when the first head above it was seen. */
      aheadOfSince: (indexed: number) =>
        Effect.map(Ref.get(firstSeen), (seen) => Option.fromNullable(seen.find((entry) => entry.number > indexed)?.at)),
      /** The interval the poll runs at now, following the chain's block time unless set. */
      pollInterval: pace.pollInterval
    }
  })
}) {}

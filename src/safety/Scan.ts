/**
 * The background safety scan: follows the index, picks tokens newly listed, tokens whose pools
 * changed and known tokens whose contract was written (./StateChanges.ts) since the last look, and
 * measures each on its best few USDC routes at a fixed probe size (./MeasureToken.ts), writing the
 * verdicts to the `VerdictBook` that `search` reads. All of it runs in fibers of this layer's scope,
 * never on a request's path.
 *
 * - The index's changes are looked at no more than once per `SAFETY_SCAN_INTERVAL_MS`, always the
 *   latest snapshot (a busy chain is sampled, not queued), and diffed against the last one looked at.
 * - `SAFETY_SCAN_CONCURRENCY` workers take the most urgent waiting token (asked about by an agent, then
 *   never measured, then changed; the most liquid first) and measure it at the index's current block;
 *   the waiting list is bounded (./Pending.ts). Searches ask through the `VerdictBook`. Its simulations
 *   run in the simulator's background lane, behind any request's (layers/Simulator.ts).
 * - A simulation the node did not answer is not a verdict: the token is measured again (a few times,
 *   backing off), and meanwhile keeps what it had; still unanswered, it waits its turn again after a
 *   longer backoff, never dropped for want of a retry.
 */
import { Data, Effect, HashMap, Option, Queue, Ref, Schedule, Stream } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { Simulator } from "../../layers/Simulator.js"
import { type Hex } from "../../schema/Chain.js"
import { ChainIndex, type IndexSnapshot } from "../indexer/ChainIndex.js"
import type { IndexState } from "../indexer/State.js"
import { valuationOf } from "../pricing/Valuation.js"
import { changedTokens } from "./Changes.js"
import { TokenMeasure } from "./MeasureToken.js"
import { makePending, Urgency } from "./Pending.js"
import { StateChanges } from "./StateChanges.js"
import { VerdictBook } from "./VerdictBook.js"

/** The node did not answer a simulation: the token is measured again (SafetyCheck does not cache that). */
class Unanswered extends Data.TaggedError("Unanswered")<{ readonly token: Hex; readonly reason: string }> {}

/** Attempts per token when the node fails to answer, before its previous verdicts are left as they are. */
const RETRIES = Schedule.exponential("250 millis").pipe(Schedule.intersect(Schedule.recurs(3)))

/** Before a token still unanswered after `RETRIES` waits its turn again: doubling per round, at most a minute. */
const requeueDelayMs = (rounds: number) => Math.min(60_000, 2_000 * 2 ** Math.min(rounds, 5))

export class SafetyScan extends Effect.Service<SafetyScan>()("SafetyScan", {
  scoped: Effect.gen(function*() {
    const { safetyScan: settings } = yield* AppConfig
    const index = yield* ChainIndex
    const tokens = yield* TokenMeasure
    const changes = yield* StateChanges
    const book = yield* VerdictBook
    const usdc = usdcOf(yield* Deployment)
    const pending = makePending<Hex>(settings.queueCapacity)
    const workers = Math.max(1, settings.concurrency)
    const wake = yield* Queue.sliding<void>(workers)
    const stats = yield* Ref.make({ looks: 0, measured: 0, unroutable: 0, asked: 0, requeued: 0 })
    // Rounds of `RETRIES` each token has failed in a row: how long it waits before the next.
    const unanswered = new Map<Hex, number>()
    // The index block each token was last judged at (a verdict or "no USDC route"): what a caller
    // waits on to know the scan has seen a change, rather than waiting some time and hoping.
    const judgedAt = yield* Ref.make(HashMap.empty<Hex, number>())

    const measure = Effect.fn("SafetyScan.measure")(function*(token: Hex) {
      const snapshot = yield* index.snapshot
      if (snapshot.catchingUp) {
        // Behind the chain: measure it once the index has caught up, not at a stale block.
        yield* Effect.sleep("1 second")
        pending.push(token, Urgency.fresh)
        return
      }
      // The scan's simulations give way to a request's (layers/Simulator.ts).
      const measured = yield* Simulator.inBackground(tokens.measure(token, snapshot))
      switch (measured._tag) {
        case "Unanswered":
          return yield* new Unanswered({ token, reason: measured.reason })
        case "Unroutable":
          yield* Ref.update(judgedAt, HashMap.set(token, snapshot.state.block))
          return yield* Ref.update(stats, (s) => ({ ...s, unroutable: s.unroutable + 1 }))
        case "Measured":
          yield* book.scanned(token, measured.verdicts, snapshot.epoch)
          yield* Ref.update(judgedAt, HashMap.set(token, snapshot.state.block))
          return yield* Ref.update(stats, (s) => ({ ...s, measured: s.measured + 1 }))
        case "Skipped":
          return
      }
    })

    const requeue = (token: Hex) =>
      Effect.gen(function*() {
        const rounds = unanswered.get(token) ?? 0
        unanswered.set(token, rounds + 1)
        yield* Ref.update(stats, (s) => ({ ...s, requeued: s.requeued + 1 }))
        yield* Effect.sleep(requeueDelayMs(rounds))
        pending.push(token, Urgency.fresh)
        yield* Queue.offer(wake, undefined)
      }).pipe(Effect.forkScoped, Effect.asVoid)

    const worker = Effect.gen(function*() {
      const token = pending.pop()
      if (token === undefined) return yield* Queue.take(wake)
      yield* measure(token).pipe(
        Effect.retry(RETRIES),
        Effect.tap(() => Effect.sync(() => unanswered.delete(token))),
        Effect.catchTag("Unanswered", () => requeue(token)),
        Effect.catchAllCause((cause) => Effect.logWarning(`safety scan of ${token} failed`, cause))
      )
    }).pipe(Effect.forever)

    // What agents ask about goes first, whenever they ask (not only when the index moves).
    const asks = Effect.gen(function*() {
      const token = yield* book.nextAsk
      if (tokens.skipped(token)) return
      pending.push(token, Urgency.asked)
      yield* Ref.update(stats, (s) => ({ ...s, asked: s.asked + 1 }))
      yield* Queue.offer(wake, undefined)
    }).pipe(Effect.forever)

    const last = yield* Ref.make<{ readonly state: IndexState; readonly epoch: number } | undefined>(undefined)
    const look = Effect.fn("SafetyScan.look")(function*(snapshot: IndexSnapshot) {
      const previous = yield* Ref.getAndSet(last, { state: snapshot.state, epoch: snapshot.epoch })
      // After a rollback the pools of the abandoned blocks are gone: look at everything again.
      const since = previous?.epoch === snapshot.epoch ? previous.state : undefined
      const known = yield* book.all
      // Tokens whose contract was written (a switch thrown, a tax raised) without their pools changing.
      const written = since === undefined
        ? []
        : Option.match(yield* changes.writtenBetween(since.block, snapshot.state.block), {
          onNone: () => [],
          onSome: (set) => [...set].filter((address) => HashMap.has(known, address))
        })
      const changed = [...new Set([...changedTokens(since, snapshot.state), ...written])]
        .filter((token) => !tokens.skipped(token))
      if (changed.length === 0) return
      // Liquidity priced through USDC alone: enough to order the waiting list, and lazy (the changed only).
      const valuation = valuationOf(snapshot.state, usdc, new Set())
      for (const token of changed) {
        const urgency = HashMap.has(known, token) ? Urgency.remeasure : Urgency.fresh
        pending.push(token, urgency, valuation.figures(token).liquidityMicro)
      }
      yield* Ref.update(stats, (s) => ({ ...s, looks: s.looks + 1 }))
      yield* Queue.offerAll(wake, Array.from({ length: workers }, () => undefined))
    })

    if (settings.enabled) {
      yield* Effect.forEach(Array.from({ length: workers }), () => Effect.forkScoped(worker), { discard: true })
      yield* Effect.forkScoped(asks)
      yield* index.changes.pipe(
        Stream.filter((snapshot) => !snapshot.catchingUp),
        // Keep only the newest snapshot while the scan is busy or waiting out its interval.
        Stream.buffer({ capacity: 1, strategy: "sliding" }),
        Stream.mapEffect(look),
        Stream.schedule(Schedule.spaced(`${settings.intervalMillis} millis`)),
        Stream.runDrain,
        Effect.forkScoped
      )
    }

    return {
      enabled: settings.enabled,
      /**
       * Looks that found changes, tokens measured, tokens with no USDC route, asks taken, rounds put back
       * unanswered, tokens waiting.
       */
      status: Effect.map(Ref.get(stats), (s) => ({ ...s, waiting: pending.size() })),
      /** The index block `token` was last judged at, if the scan has judged it. */
      judgedAt: (token: Hex) => Effect.map(Ref.get(judgedAt), HashMap.get(token))
    }
  })
}) {}

/**
 * The background safety scan: follows the index, picks tokens newly listed and tokens whose pools
 * changed since the last look, and measures each with `SafetyCheck` on its best few USDC routes at a
 * fixed probe size, writing the verdicts to the `VerdictBook` that `search` reads. All of it runs in
 * fibers of this layer's scope, never on a request's path.
 *
 * - The index's changes are looked at no more than once per `SAFETY_SCAN_INTERVAL_MS`, always the
 *   latest snapshot (a busy chain is sampled, not queued), and diffed against the last one looked at.
 * - `SAFETY_SCAN_CONCURRENCY` workers take the newest waiting token and measure it at the index's
 *   current block; the waiting list is bounded (./Pending.ts).
 * - USDC and `PINNED_ASSETS` are never simulated; a token with no exactly priced USDC path stays
 *   unmeasured (`safety: null` in search).
 * - A simulation the node did not answer is not a verdict: the token is measured again (a few times,
 *   backing off), and meanwhile keeps what it had.
 */
import { Data, Effect, HashMap, Option, Queue, Ref, Schedule, Stream } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { Venues } from "../../layers/Venues.js"
import { type Hex } from "../../schema/Chain.js"
import { ChainIndex, type IndexSnapshot } from "../indexer/ChainIndex.js"
import type { IndexState } from "../indexer/State.js"
import { HUB_TAG } from "../operations/venues.js"
import { SafetyCheck, SIMULATION_UNAVAILABLE } from "../quote/safety/SafetyCheck.js"
import { marketFromIndex } from "../routing/Market.js"
import { changedTokens } from "./Changes.js"
import { makePending } from "./Pending.js"
import { scanRoutes } from "./Routes.js"
import { VerdictBook } from "./VerdictBook.js"

/** The node did not answer a simulation: the token is measured again (SafetyCheck does not cache that). */
class Unanswered extends Data.TaggedError("Unanswered")<{ readonly token: Hex; readonly reason: string }> {}

/** Attempts per token when the node fails to answer, before its previous verdicts are left as they are. */
const RETRIES = Schedule.exponential("250 millis").pipe(Schedule.intersect(Schedule.recurs(3)))

export class SafetyScan extends Effect.Service<SafetyScan>()("SafetyScan", {
  scoped: Effect.gen(function*() {
    const { safety, safetyScan: settings } = yield* AppConfig
    const deployment = yield* Deployment
    const venues = yield* Venues
    const index = yield* ChainIndex
    const check = yield* SafetyCheck
    const book = yield* VerdictBook
    const usdc = usdcOf(deployment)
    const skipped = new Set<string>([usdc, ...safety.pinnedAssets])
    const hubs = [
      ...new Set([
        usdc,
        ...deployment.tokenList.tokens
          .filter((token) => token.chainId === deployment.chainId && (token.tags ?? []).includes(HUB_TAG))
          .map((token) => token.address.toLowerCase() as Hex)
      ])
    ]
    // Only routes the router can execute: the verdict is measured through it.
    const allowVenue = (id: string) => {
      const venue = venues.byId(id)
      return venue !== undefined && venue.executable && venue.enabled
    }
    const pending = makePending<Hex>(settings.queueCapacity)
    const workers = Math.max(1, settings.concurrency)
    const wake = yield* Queue.sliding<void>(workers)
    const stats = yield* Ref.make({ looks: 0, measured: 0, unroutable: 0 })

    const symbolOf = (state: IndexState) => (address: Hex) =>
      address === usdc ? "USDC" : Option.getOrUndefined(HashMap.get(state.tokens, address))?.symbol ?? address

    const measure = Effect.fn("SafetyScan.measure")(function*(token: Hex) {
      const snapshot = yield* index.snapshot
      if (snapshot.catchingUp) {
        // Behind the chain: measure it once the index has caught up, not at a stale block.
        yield* Effect.sleep("1 second")
        pending.push(token, false)
        return
      }
      const { state } = snapshot
      const market = marketFromIndex(state)
      const paths = scanRoutes({
        market,
        usdc,
        token,
        hubs,
        allowVenue,
        probe: settings.probeUsdc,
        maxRoutes: settings.routesPerToken
      })
      if (paths.length === 0) {
        yield* Ref.update(stats, (s) => ({ ...s, unroutable: s.unroutable + 1 }))
        return
      }
      // One route at a time: the workers' count is the bound on simulations in flight.
      const verdicts = yield* Effect.forEach(paths, (path) =>
        check.check({
          token,
          path,
          amountInUsdc: settings.probeUsdc,
          block: BigInt(state.block),
          pools: market.pool,
          symbolOf: symbolOf(state)
        }))
      const unanswered = verdicts.find((verdict) => verdict.reason?.startsWith(SIMULATION_UNAVAILABLE) === true)
      if (unanswered !== undefined) return yield* new Unanswered({ token, reason: unanswered.reason! })
      yield* book.scanned(token, verdicts)
      yield* Ref.update(stats, (s) => ({ ...s, measured: s.measured + 1 }))
    })

    const worker = Effect.gen(function*() {
      const token = pending.pop()
      if (token === undefined) return yield* Queue.take(wake)
      yield* measure(token).pipe(
        Effect.retry(RETRIES),
        Effect.catchAllCause((cause) => Effect.logWarning(`safety scan of ${token} failed`, cause))
      )
    }).pipe(Effect.forever)

    const last = yield* Ref.make<{ readonly state: IndexState; readonly epoch: number } | undefined>(undefined)
    const look = Effect.fn("SafetyScan.look")(function*(snapshot: IndexSnapshot) {
      const previous = yield* Ref.getAndSet(last, { state: snapshot.state, epoch: snapshot.epoch })
      // After a rollback the pools of the abandoned blocks are gone: look at everything again.
      const since = previous?.epoch === snapshot.epoch ? previous.state : undefined
      const changed = changedTokens(since, snapshot.state).filter((token) => !skipped.has(token))
      if (changed.length === 0) return
      const known = yield* book.all
      for (const token of changed) pending.push(token, !HashMap.has(known, token))
      yield* Ref.update(stats, (s) => ({ ...s, looks: s.looks + 1 }))
      yield* Queue.offerAll(wake, Array.from({ length: workers }, () => undefined))
    })

    if (settings.enabled) {
      yield* Effect.forEach(Array.from({ length: workers }), () => Effect.forkScoped(worker), { discard: true })
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
      /** Looks that found changes, tokens measured, tokens with no USDC route, tokens waiting. */
      status: Effect.map(Ref.get(stats), (s) => ({ ...s, waiting: pending.size() }))
    }
  })
}) {}

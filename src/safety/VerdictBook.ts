/**
 * The latest safety verdicts per token, for `search`: the background scan (./Scan.ts) and `quote`'s
 * own measurements write here, and a search reads it with one map lookup per result, so answering
 * never waits for a simulation. In memory: verdicts are cheap to measure again after a restart.
 *
 * Per token: one verdict per measured route (a verdict never replaces one measured at a later block)
 * and which route is the best (the scan's first, the deepest USDC path, or a quote's when nothing
 * better is known). Every verdict keeps the block it was measured at (`scope.block`). After a reorg
 * the verdicts measured on the abandoned blocks are dropped, and a measurement that was under way
 * when it happened is not written.
 */
import { Effect, HashMap, Option, Queue, Ref, Stream } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { SafetyVerdict } from "../../schema/Token.js"
import { ChainIndex } from "../indexer/ChainIndex.js"

/** Routes remembered per token: the scan measures a few, quotes may add others. */
export const MAX_ROUTES_PER_TOKEN = 8

export interface TokenVerdicts {
  /** `routeId` of the best route: the one `search` shows as `safety`. */
  readonly best: string
  /** Best route first, then the others in the order they were measured. */
  readonly routes: ReadonlyArray<SafetyVerdict>
}

const blockOf = (verdict: SafetyVerdict) => verdict.scope.block

/** The later of two verdicts of a route: a measurement is never replaced by an older one. */
const later = (known: SafetyVerdict | undefined, fresh: SafetyVerdict) =>
  known !== undefined && blockOf(known) > blockOf(fresh) ? known : fresh

const ordered = (best: string, routes: ReadonlyArray<SafetyVerdict>): TokenVerdicts => {
  const first = routes.filter((route) => route.routeId === best)
  const others = routes.filter((route) => route.routeId !== best)
  return { best, routes: [...first, ...others].slice(0, MAX_ROUTES_PER_TOKEN) }
}

/**
 * A scan's verdicts (best first) replace the token's routes: the scan measured every route worth
 * measuring at its block. A route measured later (by a quote, meanwhile) keeps its later verdict.
 */
export const withScan = (known: TokenVerdicts | undefined, measured: ReadonlyArray<SafetyVerdict>) => {
  const previous = new Map((known?.routes ?? []).map((route) => [route.routeId, route]))
  return ordered(measured[0]!.routeId, measured.map((route) => later(previous.get(route.routeId), route)))
}

/** A quote's verdict joins the token's routes; it becomes the best only when nothing else is known. */
export const withQuote = (known: TokenVerdicts | undefined, verdict: SafetyVerdict): TokenVerdicts => {
  if (known === undefined) return { best: verdict.routeId, routes: [verdict] }
  const previous = known.routes.find((route) => route.routeId === verdict.routeId)
  const merged = later(previous, verdict)
  const routes = previous === undefined
    ? [...known.routes, merged]
    : known.routes.map((route) => (route.routeId === verdict.routeId ? merged : route))
  return ordered(known.best, routes)
}

/** The verdicts of routes measured at or before `block`: what still describes the chain after a rollback to it. */
export const upTo = (known: TokenVerdicts, block: number): TokenVerdicts | undefined => {
  const routes = known.routes.filter((route) => blockOf(route) <= block)
  if (routes.length === 0) return undefined
  return routes.some((route) => route.routeId === known.best)
    ? { ...known, routes }
    : ordered(routes[0]!.routeId, routes)
}

/** Asks waiting for the scan to take them: more than a burst of searches names. */
const ASKS_KEPT = 4_096

export class VerdictBook extends Effect.Service<VerdictBook>()("VerdictBook", {
  scoped: Effect.gen(function*() {
    const index = yield* ChainIndex
    const ref = yield* Ref.make(HashMap.empty<Hex, TokenVerdicts>())
    // Tokens asked about without a verdict, for the scan to measure first; the newest asks win a burst.
    const asks = yield* Queue.sliding<Hex>(ASKS_KEPT)
    // The index's epoch: a measurement made before a rollback describes blocks the chain no longer has.
    const epoch = yield* Ref.make((yield* index.snapshot).epoch)
    const update = (token: Hex, measuredIn: number, f: (known: TokenVerdicts | undefined) => TokenVerdicts) =>
      Effect.flatMap(
        Ref.get(epoch),
        (current) =>
          current !== measuredIn ?
            Effect.void :
            Ref.update(ref, (book) => HashMap.set(book, token, f(Option.getOrUndefined(HashMap.get(book, token)))))
      )

    yield* index.changes.pipe(
      Stream.runForEach((snapshot) =>
        Effect.gen(function*() {
          if ((yield* Ref.getAndSet(epoch, snapshot.epoch)) === snapshot.epoch) return
          yield* Ref.update(ref, HashMap.filterMap((known) => Option.fromNullable(upTo(known, snapshot.state.block))))
        })
      ),
      Effect.forkScoped
    )

    return {
      /** Everything known, in one read: a request looks its results up in the same book. */
      all: Ref.get(ref),
      get: (token: Hex) => Effect.map(Ref.get(ref), (book) => Option.getOrUndefined(HashMap.get(book, token))),
      /** A scan's verdicts of `token`, measured in index epoch `measuredIn`. */
      scanned: Effect.fn("VerdictBook.scanned")(
        function*(token: Hex, measured: ReadonlyArray<SafetyVerdict>, measuredIn: number) {
          if (measured.length === 0) return
          yield* update(token, measuredIn, (known) => withScan(known, measured))
        }
      ),
      /**
       * Tokens an agent asked about that the book has no verdict for (a search's results): the scan
       * measures them before anything else. Never waits: a full list drops the oldest asks.
       */
      asked: (tokens: Iterable<Hex>) => Queue.offerAll(asks, tokens),
      /** The next token asked about, waiting for one (the scan's side of `asked`). */
      nextAsk: Queue.take(asks),
      /** A quote's verdict of `token`, measured in index epoch `measuredIn`. */
      // Untraced: one map update inside the quote's record step's span.
      quoted: Effect.fnUntraced(function*(token: Hex, verdict: SafetyVerdict, measuredIn: number) {
        yield* update(token, measuredIn, (known) => withQuote(known, verdict))
      })
    }
  })
}) {}

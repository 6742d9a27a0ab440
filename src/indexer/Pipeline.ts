/**
 * The indexer as one stream: heads → (catch-up ranges ++ checked follow steps) → applied.
 *
 * - Heads come from `ChainHead` (./ChainHead.ts): pushed by the node, polled, or learned by an
 *   operation on arrival. Only the newest matters, so a sliding buffer of one sits between heads and
 *   work: a head arriving during a long catch-up replaces any older one waiting.
 * - Below `head − reorgWindow` blocks are taken as final and read in large `eth_getLogs` ranges, `prefetch`
 *   at once, each decoded and its new tokens' metadata read while the next are read, then applied in order.
 * - The last `reorgWindow` blocks are read with their headers and checked parent by parent; a mismatch
 *   rolls the index back to the newest block the chain still has.
 * - A read that fails is retried in place a few times; one that keeps failing (RPC down) ends the
 *   stream, which resumes after the last applied block once a backoff passes (at most two seconds, so a
 *   chain that comes back is noticed soon): nothing applied is lost or read again.
 */
import { Clock, Effect, Option, Ref, Schedule, Stream } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import type { Header } from "./ChainSource.js"
import { logPieces, sampleDensity } from "./ChainSource.js"
import { follow } from "./Follow.js"
import { logTopics } from "./Sources.js"
import {
  type Applied,
  applyRange,
  decodePiece,
  type Engine,
  fetchRange,
  type HeadInfo,
  IN_PLACE,
  rollback,
  tipOnChain
} from "./Steps.js"

/**
 * Everything up to `safe` as log pieces, each decoded (and its new tokens' metadata read) as it arrives
 * while the next are read, then applied in order as soon as the one before it is. A failed read is
 * retried in place; the stream it restarts from the tip, so a piece already applied is not read again.
 */
const catchUp = (engine: Engine, head: HeadInfo, safe: number) =>
  Stream.unwrap(
    Effect.gen(function*() {
      const from = (yield* Ref.get(engine.tip)).state.block + 1
      const topics = logTopics(engine.sources)
      if (safe > from) yield* sampleDensity(safe, engine.sizer, topics)
      return logPieces(from, safe, engine.sizer, topics, engine.settings.prefetch, decodePiece(engine)).pipe(
        // The node builds the next answer while this process decodes and applies the one before (in
        // sequence, every wait on the node would be time nothing else used).
        Stream.buffer({ capacity: 1 }),
        Stream.mapEffect((piece) => fetchRange(engine, piece)),
        Stream.mapEffect((range) => applyRange(engine, range, head))
      )
    })
  ).pipe(Stream.retry(IN_PLACE))

const syncTo = (engine: Engine, head: Header) =>
  Stream.unwrap(Effect.gen(function*() {
    const window = engine.settings.reorgWindow
    yield* engine.progress.head(head.number, window)
    const info: HeadInfo = { number: head.number, time: head.time }
    const safe = head.number - window
    const tip = yield* Ref.get(engine.tip)
    // A tip far behind is checked once before ranges are stacked on it.
    const check = tip.state.block < safe && !(yield* tipOnChain(tip))
      ? Stream.fromEffect(rollback(engine, info))
      : Stream.empty
    return Stream.concat(check, catchUp(engine, info, safe)).pipe(Stream.concat(follow(engine, head)))
  }))

const PROGRESS_LINE_MS = 5_000

/** Progress bookkeeping, plus a log line every few seconds while far behind. */
const reporter = (engine: Engine) =>
  Effect.map(Ref.make(0), (lastLine) => (applied: Applied) =>
    Effect.gen(function*() {
      const window = engine.settings.reorgWindow
      const observed = Option.getOrUndefined(yield* engine.chainHead.latest)
      yield* engine.progress.applied(applied.indexed, applied.logs, window, observed)
      const progress = yield* engine.progress.get
      const now = yield* Clock.currentTimeMillis
      if (!progress.catchingUp || progress.head === null || now - (yield* Ref.get(lastLine)) < PROGRESS_LINE_MS) return
      yield* Ref.set(lastLine, now)
      const start = engine.settings.startBlock
      const done = Math.max(0, progress.indexed - start)
      const total = Math.max(1, progress.head - start)
      yield* Effect.logInfo(
        `indexer catching up: block ${progress.indexed} of ${progress.head} (${
          ((100 * done) / total).toFixed(1)
        }%), ${progress.logsPerSec} logs/s`
      )
    }))

/**
 * Runs forever: the stream, restarted after any failure with a backoff capped at two seconds. A defect
 * (a bug) is logged as an error and retried the same way: an indexer that stops silently is worse
 * than one that keeps trying and says why in `/health`.
 */
export const runPipeline = (engine: Engine): Effect.Effect<never, never, ChainRpc> =>
  Effect.gen(function*() {
    const report = yield* reporter(engine)
    // While a chain stays down the stream fails every two seconds: the same reason is logged twice a minute.
    const lastWarning = yield* Ref.make({ reason: "", at: 0 })
    const warn = (reason: string) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const last = yield* Ref.get(lastWarning)
        if (last.reason === reason && now - last.at < 30_000) return
        yield* Ref.set(lastWarning, { reason, at: now })
        const tip = yield* Ref.get(engine.tip)
        yield* Effect.logWarning(`indexer stream failed (${reason}); resuming after block ${tip.state.block}`)
      })
    const once = engine.chainHead.heads.pipe(
      Stream.buffer({ capacity: 1, strategy: "sliding" }),
      Stream.flatMap((head) => syncTo(engine, head)),
      Stream.runForEach(report),
      Effect.catchAllDefect((defect) =>
        Effect.zipRight(
          Effect.logError("indexer defect", defect),
          Effect.fail(new RpcUnavailable({ message: "indexer defect", hint: String(defect).split("\n")[0] }))
        )
      )
    )
    return yield* once.pipe(
      Effect.tapError((error) => {
        const reason = `${error.message}${error.hint === undefined ? "" : `: ${error.hint}`}`
        return Effect.zipRight(engine.progress.failed(reason), warn(reason))
      }),
      Effect.retry(Schedule.exponential("250 millis").pipe(Schedule.union(Schedule.spaced("2 seconds")))),
      Effect.zipRight(Effect.never),
      Effect.orDie
    )
  })

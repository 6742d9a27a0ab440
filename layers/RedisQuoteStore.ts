/**
 * The quote store in Redis, shared by every replica behind one address: a quote made on one replica is
 * swapped, permitted and receipted on any other, and survives restarts of all of them.
 *
 * A quote is one hash: `v` (its version) and `r` (the record as JSON, schema/QuoteRecord.ts). Every
 * lifecycle step (an attempt counted, the free replacement claimed, a swap paid, a permit round opened
 * or finished, a receipt read claimed, a final receipt kept) is the caller's pure transition applied
 * to the record and committed by one script that writes only if `v` is still the version read: a
 * compare-and-set, atomic in Redis. A step that lost the race reads again and re-decides on the
 * record that won, so each rule of the state table (paid once, five attempts, one replacement, one
 * read per 5 s) is decided on the latest record, whichever replica runs it. The rules stay in one
 * place (the transitions) rather than copied into Lua. A step lost `ATTEMPTS` times in a row (a quote
 * hammered from many replicas at once) gives up, after short jittered pauses, rather than spin.
 *
 * Keys expire with the record (`expiresAtMs` plus `QUOTE_RETAIN_SEC`), so Redis forgets a quote when
 * the memory store would. Redis unreachable during a call, or a step that gave up, fails the call with
 * 503 `rpc_unavailable` (`next: retry`; nothing charged: the gate settles only an answer), never a
 * quote answered from a guess. Unreachable at start-up stops the replica.
 */
import { Clock, Data, Effect, Layer, Schedule, Schema } from "effect"
import type { Redis } from "ioredis"
import { RpcUnavailable } from "../schema/Errors.js"
import { QuoteRecord } from "../schema/QuoteRecord.js"
import { AppConfig } from "./AppConfig.js"
import { lookupAt, QuoteStore, type QuoteStoreShape, type QuoteTransition } from "./QuoteStore.js"
import { redisClient } from "./Redis.js"

// KEYS: the quote. ARGV: version, record, lifetime in ms.
const PUT = `
redis.call("hset", KEYS[1], "v", ARGV[1], "r", ARGV[2])
return redis.call("pexpire", KEYS[1], ARGV[3])`

// KEYS: the quote. ARGV: version read, next version, next record, lifetime in ms. 1 written, 0 lost, -1 gone.
const SWAP = `
local version = redis.call("hget", KEYS[1], "v")
if not version then return -1 end
if version ~= ARGV[1] then return 0 end
redis.call("hset", KEYS[1], "v", ARGV[2], "r", ARGV[3])
redis.call("pexpire", KEYS[1], ARGV[4])
return 1`

const RecordJson = Schema.parseJson(QuoteRecord)
const encode = Schema.encodeSync(RecordJson)
const decode = Schema.decodeUnknownSync(RecordJson)

const die = (action: string) => (cause: unknown) =>
  new Error(`quote store (Redis) failed to ${action}: ${cause instanceof Error ? cause.message : String(cause)}`)

/** A compare-and-set that another replica's step won. */
class Lost extends Data.TaggedError("Lost") {}

/** How many times one step is tried, and the pauses between (5, 10, 20 ms, each jittered 80–120 %). */
export const ATTEMPTS = 4
const afterLoss = Schedule.exponential("5 millis").pipe(
  Schedule.jittered,
  Schedule.intersect(Schedule.recurs(ATTEMPTS - 1))
)

const unavailable = (action: string) => () =>
  new RpcUnavailable({
    message: `the quote store did not answer (could not ${action})`,
    hint: "nothing was charged; resend the same request"
  })
const contended = () =>
  new RpcUnavailable({
    message: "the quote is being updated by other calls at this moment",
    hint: "nothing was charged; resend the same request"
  })

/** A store over a connected client, keys under `prefix` (so tests and deployments share one Redis apart). */
export const redisQuoteStore = (redis: Redis, prefix: string, retainMs: number): QuoteStoreShape => {
  const keyOf = (quoteId: string) => `${prefix}quote:${quoteId}`
  const lifetimeMs = (record: QuoteRecord, now: number) => Math.max(1, Math.ceil(record.expiresAtMs + retainMs - now))
  const command = <A>(action: string, run: () => Promise<A>) =>
    Effect.tryPromise({ try: run, catch: unavailable(action) })

  const read = (quoteId: string) =>
    command("read a quote", () => redis.hget(keyOf(quoteId), "r")).pipe(
      Effect.map((json) => json === null ? undefined : decode(json)),
      Effect.zip(Clock.currentTimeMillis),
      Effect.map(([record, now]) => ({ found: lookupAt(record, now, retainMs), now }))
    )

  type Step<A> = Effect.Effect<
    { readonly _tag: "Missing" } | { readonly _tag: "Updated"; readonly result: A },
    RpcUnavailable | Lost
  >
  const attempt = <A>(quoteId: string, transition: QuoteTransition<A>): Step<A> =>
    Effect.flatMap(read(quoteId), ({ found, now }): Step<A> => {
      if (found._tag === "Missing") return Effect.succeed({ _tag: "Missing" } as const)
      const [result, next] = transition(found)
      if (next === undefined) return Effect.succeed({ _tag: "Updated", result } as const)
      const version = found.record.version
      const written = { ...next, version: version + 1 }
      return command(
        "update a quote",
        () => redis.eval(SWAP, 1, keyOf(quoteId), version, version + 1, encode(written), lifetimeMs(written, now))
      ).pipe(
        Effect.flatMap((outcome): Step<A> =>
          outcome === 1
            ? Effect.succeed({ _tag: "Updated", result } as const)
            : outcome === 0
            ? Effect.fail(new Lost())
            : Effect.succeed({ _tag: "Missing" } as const)
        )
      )
    })

  // Another replica's step committed first: decide again on the record it wrote.
  const update: QuoteStoreShape["update"] = (quoteId, transition) =>
    attempt(quoteId, transition).pipe(
      Effect.retry({ schedule: afterLoss, while: (error) => error._tag === "Lost" }),
      Effect.catchTag("Lost", () => Effect.fail(contended()))
    )

  return {
    put: (record) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (now) =>
          command("store a quote", () =>
            redis.eval(PUT, 1, keyOf(record.quoteId), record.version, encode(record), lifetimeMs(record, now)))
      ).pipe(
        Effect.asVoid
      ),
    get: (quoteId) => Effect.map(read(quoteId), ({ found }) => found),
    update
  }
}

/** The store at `url`, for the process's lifetime. */
export const redisQuoteStoreLayer = (url: string, prefix: string, retainMs: number) =>
  Layer.scoped(
    QuoteStore,
    Effect.map(
      Effect.orDie(redisClient(url, die(`connect to ${url}`))),
      (redis) => redisQuoteStore(redis, prefix, retainMs)
    )
  )

/** The service's quote store: in Redis when `REDIS_URL` is set (replicas share it), else in this process. */
export const QuoteStoreLive = Layer.unwrapEffect(
  Effect.map(AppConfig, ({ quoteRetainSec, redis }) =>
    redis.url._tag === "Some"
      ? redisQuoteStoreLayer(redis.url.value, redis.prefix, quoteRetainSec * 1_000)
      : QuoteStore.layerMemory)
)

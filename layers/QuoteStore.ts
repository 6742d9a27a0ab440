/**
 * Where quotes live between `quote` and `swap`/`receipt`. Store-agnostic: callers see `put`, `get` and
 * an atomic `update`, all Effects over serialisable records (schema/QuoteRecord.ts), so a Redis layer
 * can replace the in-memory one without touching them.
 *
 * A quote is live until `expiresAtMs`; after that `get` still finds it as `Expired` for `retainSec`
 * (`QUOTE_RETAIN_SEC`, default one hour), so `swap` can answer 410 `quote_expired` rather than 404
 * `quote_not_found`, and `receipt` can still read what a built swap promised. Then it is gone.
 *
 * `update` takes a pure transition (record in, result and next record out) and applies it atomically:
 * in memory it runs synchronously inside one fiber step, so two concurrent updates of one quote never
 * interleave; a remote store runs it as compare-and-set on `version`, retrying a few times on a conflict.
 *
 * Every method may fail with `RpcUnavailable` (503, `next: retry`): a remote store that does not answer,
 * or a quote too contended to update now. The memory store never fails. An operation that meets it
 * fails before its answer, so nothing is charged (the gate settles only an answer).
 */
import { Clock, Context, Effect, Layer } from "effect"
import type { RpcUnavailable } from "../schema/Errors.js"
import type { QuoteRecord } from "../schema/QuoteRecord.js"
import { AppConfig } from "./AppConfig.js"

export type QuoteLookup =
  | { readonly _tag: "Live"; readonly record: QuoteRecord }
  | { readonly _tag: "Expired"; readonly record: QuoteRecord }
  | { readonly _tag: "Missing" }

/** A transition of one stored quote: what to return, and the record to store (`undefined` keeps it as is). */
/** What a stored record is at `now`: live, expired but still known, or past its retention (gone). */
export const lookupAt = (record: QuoteRecord | undefined, now: number, retainMs: number): QuoteLookup => {
  if (record === undefined || record.expiresAtMs + retainMs <= now) return { _tag: "Missing" }
  return record.expiresAtMs <= now ? { _tag: "Expired", record } : { _tag: "Live", record }
}

export type QuoteTransition<A> = (
  lookup: Exclude<QuoteLookup, { readonly _tag: "Missing" }>
) => readonly [A, QuoteRecord | undefined]

export interface QuoteStoreShape {
  readonly put: (record: QuoteRecord) => Effect.Effect<void, RpcUnavailable>
  readonly get: (quoteId: string) => Effect.Effect<QuoteLookup, RpcUnavailable>
  /** Applies `transition` atomically to a stored quote (live or expired); `Missing` when there is none. */
  readonly update: <A>(
    quoteId: string,
    transition: QuoteTransition<A>
  ) => Effect.Effect<{ readonly _tag: "Missing" } | { readonly _tag: "Updated"; readonly result: A }, RpcUnavailable>
}

export class QuoteStore extends Context.Tag("QuoteStore")<QuoteStore, QuoteStoreShape>() {
  /** An in-process store: one replica only (quotes are lost on restart, which a 120 s lifetime tolerates). */
  static readonly make = (retainMs: number): Effect.Effect<QuoteStoreShape> =>
    Effect.sync(() => {
      const records = new Map<string, QuoteRecord>()
      let nextSweep = 0

      /** Drops records past their retention; at most once a second, so a put stays O(1) amortised. */
      const sweep = (now: number) => {
        if (now < nextSweep) return
        nextSweep = now + 1_000
        for (const [id, record] of records) {
          if (record.expiresAtMs + retainMs <= now) records.delete(id)
        }
      }

      const lookup = (quoteId: string, now: number) => lookupAt(records.get(quoteId), now, retainMs)

      return {
        put: (record) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            sweep(now)
            records.set(record.quoteId, record)
          }),
        get: (quoteId) => Effect.map(Clock.currentTimeMillis, (now) => lookup(quoteId, now)),
        update: (quoteId, transition) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const found = lookup(quoteId, now)
            if (found._tag === "Missing") return { _tag: "Missing" } as const
            const [result, next] = transition(found)
            if (next !== undefined) records.set(quoteId, { ...next, version: found.record.version + 1 })
            return { _tag: "Updated", result } as const
          })
      }
    })

  /** The in-memory store as a layer; the service picks memory or Redis with `QuoteStoreLive` (./RedisQuoteStore.ts). */
  static readonly layerMemory = Layer.effect(
    QuoteStore,
    Effect.flatMap(AppConfig, (config) => QuoteStore.make(config.quoteRetainSec * 1_000))
  )
}

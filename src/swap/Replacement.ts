/**
 * The one free replacement quote a paid quote may get when `swap` finds it stale or expired (the spec's
 * error rules 1 and 2): the same request quoted again for the taker, not executed. It is claimed
 * atomically, so two concurrent failing swaps hand out one replacement between them; a replacement is
 * itself unpaid, so it gets none of its own.
 *
 * - it can be traded: it rides on the error with `next: requote` (review it, then use its `quoteId`);
 * - it cannot (no route or liquidity, `cannot_sell` / `illiquid`, not executable, a taker that cannot
 *   finish): `next: stop`, with `error.hint` saying which, and the quote when there is one;
 * - the re-quote failed on our side: no quote, `next: requote`, and the claim is given back.
 */
import { Effect, Schema } from "effect"
import { QuoteStore } from "../../layers/QuoteStore.js"
import type { Address } from "../../schema/Primitives.js"
import { QuoteResponse } from "../../schema/Quote.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import { quote } from "../quote/Quote.js"
import { stopReason } from "../quote/Stop.js"

export interface Replacement {
  readonly quote?: object
  readonly tradable?: boolean
  readonly hint?: string
}

const setIssued = (issued: boolean) => (record: QuoteRecord): QuoteRecord => ({
  ...record,
  attempts: { ...record.attempts, replacementIssued: issued }
})

/** Why a replacement answer cannot be traded (the quote's own stop rule), or undefined when it can. */
const untradable = (answer: QuoteResponse): string | undefined => {
  const reason = stopReason({
    safety: answer.safety,
    executable: answer.best.executable,
    ready: answer.readiness?.ready
  })
  switch (reason?._tag) {
    case undefined:
      return undefined
    case "Verdict":
      return `the replacement quote's verdict is \`${reason.verdict}\``
    case "NotExecutable":
      return "the replacement quote's best plan is not executable"
    case "NotReady":
      return "the taker cannot finish the replacement quote (see its `readiness`)"
  }
}

export const replacementFor = Effect.fn("Swap.replacement")(function*(record: QuoteRecord, taker: Address) {
  const store = yield* QuoteStore
  const claimed = yield* store.update(
    record.quoteId,
    ({ record: current }) => current.attempts.replacementIssued ? [false, undefined] : [true, setIssued(true)(current)]
  )
  if (claimed._tag !== "Updated" || !claimed.result) return {} satisfies Replacement
  const giveBack = store.update(record.quoteId, ({ record: current }) => [undefined, setIssued(false)(current)])
  return yield* quote({ ...record.request, taker }).pipe(
    Effect.tap((answer) => store.update(answer.quoteId, ({ record: fresh }) => [undefined, setIssued(true)(fresh)])),
    Effect.flatMap((answer) =>
      Effect.map(Effect.orDie(Schema.encode(QuoteResponse)(answer)), (body): Replacement => {
        const hint = untradable(answer)
        return hint === undefined ? { quote: body, tradable: true } : { quote: body, tradable: false, hint }
      })
    ),
    Effect.catchAll((error): Effect.Effect<Replacement> => {
      switch (error._tag) {
        case "NoRoute":
        case "InsufficientLiquidity":
        case "TokenNotFound":
          return Effect.succeed({ tradable: false, hint: `no replacement: ${error.message}` })
        default:
          // A store that cannot take the claim back now costs the caller only this replacement.
          return Effect.as(Effect.ignore(giveBack), {})
      }
    })
  )
})

/**
 * `swap`: a live quote's unsigned transactions for the taker, re-priced and re-simulated from the
 * taker's wallet at the current block (./Build.ts). Around the build, the quote's lifecycle in the
 * `QuoteStore`, each step one atomic update so concurrent calls for a quote stay consistent:
 *
 * - a missing quote is `quote_not_found`; an expired one `quote_expired`, and a stale one `quote_stale`,
 *   both with the one free replacement quote per paid quote (./Replacement.ts);
 * - every failed build counts against the quote's 5 attempts, then `swap_attempts_exhausted`;
 * - a build that needs a permit opens (or re-issues) the quote's permit round for `swap/tx`; one that
 *   does not records the built swap for `receipt`;
 * - paid once per quote: the price is asked only while no swap for the quote was paid (`swapCharge`);
 *   a charged call that finds another charged call already paid for the quote is refused, uncharged.
 */
import { Clock, Effect } from "effect"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { lowerAddress, ZERO_ADDRESS } from "../../schema/Chain.js"
import {
  CannotSell,
  invalidField,
  PaymentUnavailable,
  QuoteExpired,
  QuoteNotFound,
  QuoteStale,
  SwapAttemptsExhausted,
  type TradeError
} from "../../schema/Errors.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import type { SwapRequest } from "../../schema/Swap.js"
import { swapAnswer } from "./Answer.js"
import { buildSwap } from "./Build.js"
import { finish } from "./Finish.js"
import { issuedPermit } from "./PermitRound.js"
import { replacementFor } from "./Replacement.js"

export const MAX_SWAP_FAILURES = 5

export const SWAP_PRICE_RULE =
  "by the order's size in US dollars, fixed when the quote was made: under $1,000 0.01 USDC; $1,000 to " +
  "$10,000 0.05 USDC; above $10,000 0.05 USDC plus 0.5 bp of the part above $10,000, capped at 5 USDC " +
  "(defaults; `PRICE_SWAP_*`). Paid once per quote: after a paid swap, further swap calls for the same quote " +
  "are free, and so is a swap of an unknown, expired or exhausted quote (it can only fail)"

/** The price of a `swap` call: the quote's swap price until one was paid; free when it can only fail. */
export const swapCharge = (request: { readonly quoteId: string }) =>
  Effect.flatMap(QuoteStore, (store) => store.get(request.quoteId)).pipe(
    Effect.map((found) =>
      found._tag === "Live" && !found.record.attempts.swapPaid &&
        found.record.attempts.swapFailures < MAX_SWAP_FAILURES
        ? found.record.swapPrice
        : 0n
    )
  )

/** Failures that are the attempt's, not the service's: they use up one of the five attempts (of a quote's
 * `swap` calls, or of a permit round's `swap/tx` calls). */
export const countsAsAttempt = (error: TradeError) =>
  error._tag !== "RpcUnavailable" && error._tag !== "Internal" && error._tag !== "PaymentUnavailable"

const countFailure = (quoteId: string) =>
  Effect.flatMap(QuoteStore, (store) =>
    store.update(quoteId, ({ record }) => [undefined, {
      ...record,
      attempts: { ...record.attempts, swapFailures: record.attempts.swapFailures + 1 }
    }]))

const withReplacement = (record: QuoteRecord, taker: SwapRequest["taker"]) => (error: QuoteStale) =>
  Effect.flatMap(replacementFor(record, taker), (replacement) => {
    const hint = replacement.hint ?? error.hint
    return Effect.fail(
      new QuoteStale({ ...replacement, message: error.message, ...(hint === undefined ? {} : { hint }) })
    )
  })

/**
 * A quote whose verdict is `cannot_sell` for the token it buys answered `next: stop`; building its swap
 * anyway would hand the agent a token it cannot sell. Selling such a token is left to the taker's own
 * simulation (it reverts or it does not).
 */
const buysUnsellable = (record: QuoteRecord, usdc: string) =>
  record.safety?.verdict === "cannot_sell" && record.buy !== usdc

/**
 * `charged` is what this call is being charged (0 when free): a charged call that finds the quote's
 * swap already paid by another is refused, so a quote's swap is paid once.
 */
export const swap = Effect.fn("Swap.run")(function*(request: SwapRequest, { charged }: { readonly charged: bigint }) {
  const store = yield* QuoteStore
  const found = yield* store.get(request.quoteId)
  if (found._tag === "Missing") {
    return yield* new QuoteNotFound({
      message: `no quote ${request.quoteId} is known`,
      hint: "quote again; a quote is kept one hour past its expiry, then forgotten"
    })
  }
  if (found._tag === "Expired") {
    const replacement = yield* replacementFor(found.record, request.taker)
    return yield* new QuoteExpired({
      message: `quote ${request.quoteId} expired at ${new Date(found.record.expiresAtMs).toISOString()}`,
      ...replacement
    })
  }
  const record = found.record
  if (record.attempts.swapFailures >= MAX_SWAP_FAILURES) {
    return yield* new SwapAttemptsExhausted({
      message: `${MAX_SWAP_FAILURES} swap attempts for quote ${record.quoteId} failed`,
      hint: "quote again"
    })
  }
  const { chainId, contracts } = yield* Deployment
  if (buysUnsellable(record, usdcOf({ contracts }))) {
    return yield* new CannotSell({
      message: `the quote's sell-back simulation could not sell ${record.buy} back: its swap is not built`,
      hint: record.safety?.reason ?? "the quote's verdict is `cannot_sell`"
    })
  }
  const taker = lowerAddress(request.taker)
  const recipient = lowerAddress(request.recipient ?? request.taker)
  if (recipient === ZERO_ADDRESS) {
    return yield* invalidField(["recipient"], {
      expected: "a non-zero address",
      message: "the recipient cannot be the zero address"
    })
  }

  const built = yield* buildSwap(record, {
    taker,
    recipient,
    approval: request.approval,
    deadlineSec: request.deadlineSec,
    openPermit: record.permitRound?.state === "open" && record.permitRound.taker === taker &&
        record.permitRound.recipient === recipient
      ? issuedPermit(record.permitRound.permit)
      : undefined
  }).pipe(
    Effect.tapError((error) => countsAsAttempt(error) ? countFailure(record.quoteId) : Effect.void),
    Effect.catchTag("QuoteStale", withReplacement(record, request.taker))
  )

  const nowMs = yield* Clock.currentTimeMillis
  const finished = yield* finish(record, built, { taker, recipient }, charged, nowMs)
  if (finished._tag === "Missing" || finished.result._tag === "PaidElsewhere") {
    return yield* new PaymentUnavailable({
      message: "another call paid for this quote's swap at the same moment; this call was not charged",
      hint: "send the same request again without a payment: the quote's swap is paid"
    })
  }
  const permit = finished.result.permit
  return swapAnswer({
    quoteId: record.quoteId,
    chainId,
    block: built.block,
    taker,
    recipient,
    transactions: [...built.approvals, built.swap],
    permit: permit === undefined ? undefined : { permit2: contracts["permit2"]!, permit },
    minAmountOut: built.minAmountOut,
    amountOutSimulated: built.amountOutSimulated,
    deadline: built.deadline
  })
})

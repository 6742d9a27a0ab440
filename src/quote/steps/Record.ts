/**
 * A quote's sixth step, its first to leave a trace: the quote stored (QuoteStore) with everything `swap`
 * needs, under a fresh id, valid for the request's `ttlSec`, and its verdict given to the `VerdictBook`
 * for `search`. The steps before it only read: a quote that fails on its way here leaves no trace.
 */
import { Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"
import { Deployment } from "../../../layers/Deployment.js"
import { QuoteStore } from "../../../layers/QuoteStore.js"
import type { QuoteRecord } from "../../../schema/QuoteRecord.js"
import { planEdges } from "../../routing/Plan.js"
import { judgedToken } from "../../safety/QuoteVerdict.js"
import { VerdictBook } from "../../safety/VerdictBook.js"
import { fallbacksOf, storedEdge } from "../Fallbacks.js"
import type { Ready } from "./Ready.js"

export interface Recorded extends Ready {
  readonly record: QuoteRecord
}

export const record = Effect.fn("Quote.record")(function*(ready: Ready) {
  const { bestExecutable, request, routes } = ready
  const plan = routes.best
  const now = yield* Clock.currentTimeMillis
  const record: QuoteRecord = {
    quoteId: `q_${randomBytes(16).toString("hex")}`,
    version: 0,
    createdAtMs: now,
    expiresAtMs: now + request.ttlSec * 1_000,
    block: ready.block,
    network: `eip155:${(yield* Deployment).chainId}`,
    request,
    sell: ready.sellToken,
    buy: ready.buyToken,
    side: request.side,
    plan: { type: ready.shape.type, executable: bestExecutable, edges: planEdges(plan).map(storedEdge) },
    amountIn: plan.amountIn,
    amountOut: plan.amountOut,
    minAmountOut: ready.minAmountOut,
    maxAmountIn: ready.maxAmountIn,
    gasUnits: plan.gasUnits,
    fallbacks: bestExecutable
      ? []
      : fallbacksOf(routes.candidates, ready.context.executable, request.side, request.slippageBps),
    safety: ready.safety,
    orderUsdMicro: ready.orderUsdMicro,
    swapPrice: ready.swapPrice,
    attempts: { swapFailures: 0, replacementIssued: false, swapPaid: false },
    permitRound: null,
    swap: null,
    receiptReads: { count: 0, lastAtMs: 0, final: null }
  }
  yield* (yield* QuoteStore).put(record)
  if (ready.safety !== null) {
    yield* (yield* VerdictBook).quoted(
      judgedToken(ready.untaxed.best, ready.usdc),
      ready.safety,
      ready.view.snapshot.epoch
    )
  }
  return { ...ready, record } satisfies Recorded
})

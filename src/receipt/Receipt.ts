/**
 * `receipt` (free): did the swap built for a quote deliver at least its minimum. One atomic store
 * update claims the chain read (rate limits, the one-hour lifetime, a final answer kept from before),
 * then one batched read of the listed transactions, the taker's code and the quote's fills decides
 * pass, pending or fail (src/receipt/Verdict.ts). A pass or a fail after a fill is kept, so asking again
 * with the same hashes answers without reading the chain.
 */
import { Clock, Effect } from "effect"
import { contractOf, Deployment } from "../../layers/Deployment.js"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { Internal, ReceiptRateLimited, ReceiptReadsExhausted, SwapNotFound } from "../../schema/Errors.js"
import type { ReceiptRequest } from "../../schema/Receipt.js"
import { readChain } from "./ChainRead.js"
import { type Claim, claimRead, hashesKey, isFinal, keepFinal, MAX_READS } from "./Claim.js"
import { fillsOf } from "./Fills.js"
import { revertReason } from "./RevertReason.js"
import { senderRefusal } from "./Sender.js"
import { judge } from "./Verdict.js"

export const receipt = Effect.fn("Receipt.run")(function*(request: ReceiptRequest) {
  const store = yield* QuoteStore
  const now = yield* Clock.currentTimeMillis
  const key = hashesKey(request.txHashes)
  const updated = yield* store.update(request.quoteId, claimRead(now, key))
  const claim: Claim = updated._tag === "Missing" ? { _tag: "NoSwap" } : updated.result
  switch (claim._tag) {
    case "NoSwap":
      return yield* new SwapNotFound({
        message: `no swap built in the last hour is known for ${request.quoteId}`,
        hint: "a receipt answers for one hour after `swap` built the transactions; quote again for a new trade"
      })
    case "Final":
      return claim.answer
    case "TooSoon":
      return yield* new ReceiptRateLimited({
        message: `one chain read per quote every 5 seconds: ask again in ${claim.retryAfterSec} s`,
        retryAfterSec: claim.retryAfterSec
      })
    case "Exhausted":
      return yield* new ReceiptReadsExhausted({
        message: `all ${MAX_READS} receipt reads of ${request.quoteId} are used`,
        hint: "check the transactions on chain directly"
      })
  }
  const { swap, record } = claim
  const router = contractOf(yield* Deployment, "router")
  if (router === undefined) return yield* new Internal({ message: "no router contract is configured" })
  const taker = swap.taker

  const view = yield* readChain({
    quoteId: request.quoteId,
    txHashes: request.txHashes,
    taker,
    router,
    fromBlock: swap.block
  })
  const refusal = senderRefusal(view, taker)
  if (refusal !== undefined) return yield* refusal

  const verdict = judge({
    quoteId: request.quoteId,
    buy: record.buy,
    swap,
    router,
    view,
    fills: fillsOf(view, request.quoteId, router, taker)
  })
  const why = verdict.reverted === undefined ? undefined : yield* revertReason(verdict.reverted)
  const answer = why === undefined ? verdict.answer : { ...verdict.answer, reason: `${verdict.answer.reason}: ${why}` }
  if (isFinal(answer)) yield* store.update(request.quoteId, keepFinal(key, answer))
  return answer
})

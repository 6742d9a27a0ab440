/**
 * `swap/tx`: finishes a permit round. The signed permit must be the one `swap` issued for this quote,
 * taker and recipient, signed by the taker, while the quote is live; then the final swap (the same plan
 * with the permit and signature) is simulated from the taker at the current block and returned once,
 * after any approval still unsent. Five failed calls close the round; a stale price answers
 * `quote_stale` without a replacement (the spec's error rule 3).
 */
import { Clock, Effect, Option } from "effect"
import { getAddress } from "viem"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { hexOption } from "../../schema/Chain.js"
import { invalidField, NoPendingSwap, QuoteExpired, QuoteNotFound, SwapAttemptsExhausted } from "../../schema/Errors.js"
import { type PermitRound, planHashesAfter, type QuoteRecord } from "../../schema/QuoteRecord.js"
import type { SwapTxRequest } from "../../schema/Swap.js"
import { routerVenuesOf } from "../execution/FromRoute.js"
import { permitSigner } from "../execution/Permit2.js"
import { decodeRouterCall, encodeExecuteWithPermit, planHashOf } from "../execution/RouterPlan.js"
import { readTakerWallet } from "../execution/TakerWallet.js"
import { marketFromIndex } from "../routing/Market.js"
import { TokenSearch } from "../search/TokenSearch.js"
import { swapAnswer } from "./Answer.js"
import type { BuiltTransaction } from "./Build.js"
import { gasLimit } from "./Gas.js"
import { issuedPermit, samePermit, submittedPermit } from "./PermitRound.js"
import { rejudge } from "./Rejudge.js"
import { revertedSwap } from "./Reverted.js"
import { countsAsAttempt, MAX_SWAP_FAILURES } from "./Swap.js"
import { takerSellBack } from "./TakerSellBack.js"
import { simulateTakerSwap } from "./TakerSimulation.js"

const invalidPermit = (path: ReadonlyArray<string>, message: string) =>
  invalidField(path, { expected: "the permit `swap` issued, signed by the taker", code: "invalid_permit", message })

/** Whether `round` is still the round this call read (no other call finished or replaced it). */
const isRound = (current: PermitRound | null, round: PermitRound) =>
  current !== null && current.state === "open" && current.executeData === round.executeData &&
  current.permit.nonce === round.permit.nonce && current.permit.sigDeadline === round.permit.sigDeadline

const countRoundFailure = (quoteId: string, round: PermitRound) =>
  Effect.flatMap(QuoteStore, (store) =>
    store.update(quoteId, ({ record }) => {
      if (!isRound(record.permitRound, round)) return [undefined, undefined]
      const failures = record.permitRound!.failures + 1
      return [undefined, {
        ...record,
        permitRound: { ...record.permitRound!, failures, state: failures >= MAX_SWAP_FAILURES ? "closed" : "open" }
      }]
    }))

const attempt = Effect.fn("SwapTx.attempt")(function*(record: QuoteRecord, round: PermitRound, request: SwapTxRequest) {
  const deployment = yield* Deployment
  const { chainId, contracts } = deployment
  const router = contracts["router"]!
  const permit2 = contracts["permit2"]!
  const issued = issuedPermit(round.permit)
  const submitted = submittedPermit(request.permit.message)
  if (!samePermit(submitted, issued)) {
    return yield* invalidPermit(["permit", "message"], "the permit message is not the one `swap` issued for this round")
  }
  const signature = Option.getOrUndefined(hexOption(request.permit.signature))
  if (signature === undefined) {
    return yield* invalidPermit(["permit", "signature"], "the signature is not hex")
  }
  const signer = yield* Effect.promise(() => permitSigner(chainId, permit2, issued, signature))
  if (signer === undefined || signer.toLowerCase() !== round.taker) {
    return yield* invalidPermit(["permit", "signature"], "the signature does not recover to the taker")
  }

  const { snapshot } = yield* (yield* TokenSearch).view
  const block = snapshot.state.block
  const market = marketFromIndex(snapshot.state)
  const nowSec = Math.max(Math.floor((yield* Clock.currentTimeMillis) / 1000), snapshot.state.time)
  const requested = BigInt(nowSec + request.deadlineSec)
  // The permit cannot be used after its signature deadline: the swap's own deadline never outlasts it.
  const deadline = requested < issued.sigDeadline ? requested : issued.sigDeadline
  const { plan } = decodeRouterCall(round.executeData)
  const data = encodeExecuteWithPermit({ ...plan, deadline }, issued, signature)

  // The verdict's simulation and the wallet's reads are independent round trips: sent together.
  const [, wallet] = yield* Effect.all([
    rejudge(record, market, block),
    readTakerWallet({
      taker: round.taker,
      sellToken: record.sell,
      usdc: usdcOf({ contracts }),
      router,
      permit2,
      block: BigInt(block)
    })
  ], { concurrency: "unbounded" })
  const approvals = wallet.allowanceToPermit2 >= issued.details.amount ? [] : round.approvals
  const sellBack = yield* takerSellBack({
    record,
    market,
    taker: round.taker,
    recipient: plan.recipient,
    router,
    venues: routerVenuesOf(deployment.venues),
    usdc: usdcOf({ contracts })
  })
  const outcome = yield* simulateTakerSwap({
    block: BigInt(block),
    taker: round.taker,
    router,
    approvals,
    pendingPermit: undefined,
    swap: { data, value: 0n },
    exactOut: plan.exactOut,
    ...(sellBack === undefined ? {} : { after: sellBack.calls })
  })
  if (outcome._tag === "Reverted") return yield* revertedSwap(outcome, "final swap", block)
  if (sellBack !== undefined) yield* sellBack.judge(outcome)
  const transactions: Array<BuiltTransaction> = [
    ...approvals.map((tx, i) => ({
      to: getAddress(tx.to),
      data: tx.data,
      value: 0n,
      gas: gasLimit(outcome.approvalGas[i]!),
      purpose: "approve" as const
    })),
    { to: router, data, value: 0n, gas: gasLimit(outcome.swapGas), purpose: "swap" }
  ]
  return {
    block,
    deadline,
    transactions,
    amountOutSimulated: outcome.amountOut,
    minAmountOut: record.minAmountOut,
    planHash: planHashOf(plan)
  }
})

export const swapTx = Effect.fn("SwapTx.run")(function*(request: SwapTxRequest) {
  const store = yield* QuoteStore
  const found = yield* store.get(request.quoteId)
  if (found._tag === "Missing") {
    return yield* new QuoteNotFound({ message: `no quote ${request.quoteId} is known`, hint: "quote again" })
  }
  if (found._tag === "Expired") {
    return yield* new QuoteExpired({ message: `quote ${request.quoteId} expired; its permit round cannot finish` })
  }
  const record = found.record
  const taker = request.taker.toLowerCase()
  const recipient = (request.recipient ?? request.taker).toLowerCase()
  const round = record.permitRound
  if (round === null || round.state === "consumed" || round.taker !== taker || round.recipient !== recipient) {
    return yield* new NoPendingSwap({
      message: "no permit round is open for this quote, taker and recipient",
      hint: "call `swap` with `approval: permit2` first; a round is finished once"
    })
  }
  if (round.state === "closed") {
    return yield* new SwapAttemptsExhausted({ message: `${MAX_SWAP_FAILURES} calls failed in this permit round` })
  }

  const final = yield* attempt(record, round, request).pipe(
    Effect.tapError((error) => countsAsAttempt(error) ? countRoundFailure(record.quoteId, round) : Effect.void)
  )
  const nowMs = yield* Clock.currentTimeMillis
  const consumed = yield* store.update(record.quoteId, ({ record: current }) => {
    if (!isRound(current.permitRound, round)) return [false, undefined]
    return [true, {
      ...current,
      permitRound: { ...current.permitRound!, state: "consumed" as const },
      swap: {
        builtAtMs: nowMs,
        block: final.block,
        taker,
        recipient,
        minAmountOut: final.minAmountOut,
        amountOutSimulated: final.amountOutSimulated,
        planHashes: planHashesAfter(current.swap, { taker, recipient }, final.planHash)
      }
    }]
  })
  if (consumed._tag !== "Updated" || !consumed.result) {
    return yield* new NoPendingSwap({ message: "this permit round was finished by another call" })
  }
  const { chainId } = yield* Deployment
  return swapAnswer({
    quoteId: record.quoteId,
    chainId,
    block: final.block,
    taker,
    recipient,
    transactions: final.transactions,
    permit: undefined,
    minAmountOut: final.minAmountOut,
    amountOutSimulated: final.amountOutSimulated,
    deadline: final.deadline
  })
})

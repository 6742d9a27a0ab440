/**
 * The receipt's answer from what the chain holds, pure. In order: a fill in a transaction not listed
 * (the quote was executed behind the caller's back, or twice) fails and stops; a fill in a listed
 * transaction passes when it executed a plan `swap` built for the quote (its `planHash`: tokens,
 * recipient, amounts and steps, so the buy token and the recipient are the quote's) and delivered at
 * least the minimum, and fails and stops otherwise; with no fill, any listed transaction not yet mined
 * is pending, and when all are mined nothing was filled: fail, requote.
 */
import type { Address } from "../../schema/Chain.js"
import type { BuiltSwap } from "../../schema/QuoteRecord.js"
import type { ReceiptResponse, ReceiptTransaction } from "../../schema/Receipt.js"
import { checksumOf } from "../routing/Checksum.js"
import type { ChainView, RpcTransaction } from "./ChainRead.js"
import { READ_INTERVAL_MS } from "./Claim.js"
import type { Fill } from "./Fills.js"

export interface VerdictInput {
  readonly quoteId: string
  readonly buy: Address
  readonly swap: BuiltSwap
  readonly router: string
  readonly view: ChainView
  readonly fills: ReadonlyArray<Fill>
}

/** The answer, and for a reverted router call the transaction whose revert reason is worth a replay. */
export interface Verdict {
  readonly answer: ReceiptResponse
  readonly reverted?: RpcTransaction & { readonly block: number; readonly gasUsed: bigint }
}

const statusOf = (listed: ChainView["listed"][number]): ReceiptTransaction => ({
  txHash: listed.hash,
  status: listed.receipt === null ? "unmined" : BigInt(listed.receipt.status) === 1n ? "success" : "reverted",
  block: listed.receipt === null ? null : Number(listed.receipt.blockNumber)
})

const short = (hash: string) => `${hash.slice(0, 10)}…`

export const judge = (input: VerdictInput): Verdict => {
  const { swap, view } = input
  const lower = (address: string) => address.toLowerCase()
  const listedHashes = new Set<string>(view.listed.map((listed) => listed.hash))
  const transactions = view.listed.map(statusOf)
  const listedFills = input.fills.filter((fill) => listedHashes.has(fill.txHash))
  const unlisted = [...new Set(input.fills.filter((fill) => !listedHashes.has(fill.txHash)).map((f) => f.txHash))]
  // Every recorded hash is of a plan for this taker and recipient (`planHashesAfter`) buying the quote's token.
  const built = (fill: Fill) => swap.planHashes.some((hash) => lower(hash) === lower(fill.event.planHash))
  const delivered = input.fills.filter(built).reduce((sum, fill) => sum + fill.event.amountOut, 0n)
  const filled = listedFills[0]

  const answer: ReceiptResponse = {
    quoteId: input.quoteId,
    result: "fail",
    delivered: delivered.toString(),
    minAmountOut: swap.minAmountOut.toString(),
    token: checksumOf(input.buy),
    recipient: checksumOf(swap.recipient),
    swapTxHash: filled?.txHash ?? null,
    block: filled?.block ?? null,
    transactions,
    unlistedFills: unlisted,
    reason: null
  }
  const fail = (next: "stop" | "requote", reason: string): Verdict => ({ answer: { ...answer, next, reason } })

  if (unlisted.length > 0) {
    return fail(
      "stop",
      `the quote was filled in ${unlisted.length === 1 ? "a transaction" : "transactions"} not listed: ` +
        `${unlisted.join(", ")}; a swap filled, so do not send it again`
    )
  }
  if (filled !== undefined) {
    const stray = listedFills.find((fill) => !built(fill))
    if (stray !== undefined) {
      return fail(
        "stop",
        `the fill in ${stray.txHash} executed a plan \`swap\` did not build for this quote ` +
          `(planHash ${stray.event.planHash}): its tokens, recipient, amounts or steps differ`
      )
    }
    if (delivered >= swap.minAmountOut) return { answer: { ...answer, result: "pass" } }
    return fail("stop", `delivered ${delivered}, less than minAmountOut ${swap.minAmountOut} (in ${filled.txHash})`)
  }

  const unmined = transactions.flatMap((tx, i) => (tx.status === "unmined" ? [i] : []))
  if (unmined.length > 0) {
    return {
      answer: {
        ...answer,
        result: "pending",
        next: "retry",
        retryAfterSec: READ_INTERVAL_MS / 1_000,
        reason: `not mined yet: ${unmined.map((i) => `txHashes[${i}] ${short(transactions[i]!.txHash)}`).join(", ")}` +
          "; ask again in 5 seconds or more"
      }
    }
  }

  const routerCall = (status: ReceiptTransaction["status"]) =>
    view.listed.findIndex((listed, i) =>
      listed.transaction?.to != null && lower(listed.transaction.to) === lower(input.router) &&
      transactions[i]!.status === status
    )
  const reverted = routerCall("reverted")
  if (reverted !== -1) {
    const listed = view.listed[reverted]!
    const block = transactions[reverted]!.block!
    return {
      answer: {
        ...answer,
        swapTxHash: listed.hash,
        block,
        next: "requote",
        reason: `the swap transaction ${listed.hash} reverted in block ${block}; nothing was filled`
      },
      reverted: { ...listed.transaction!, block, gasUsed: BigInt(listed.receipt!.gasUsed) }
    }
  }
  if (routerCall("success") !== -1) {
    return fail("requote", "a listed router call succeeded but filled no plan of this quote for the taker")
  }
  return fail(
    "requote",
    "no listed transaction calls the router, and no fill of this quote was found; list the swap's hash if it was sent"
  )
}

/**
 * Who may read the chain for a receipt, decided in one atomic store update so two concurrent receipts
 * of one quote cannot both read inside the 5 s window: the record is gone after an hour, answered from
 * its final result when that cannot change, refused while too soon or after 132 reads, or claimed
 * (count and time recorded before the read, so a read that fails still counts).
 */
import type { QuoteTransition } from "../../layers/QuoteStore.js"
import type { BuiltSwap, QuoteRecord } from "../../schema/QuoteRecord.js"
import type { ReceiptResponse } from "../../schema/Receipt.js"

export const READ_INTERVAL_MS = 5_000
export const MAX_READS = 132
/** A receipt answers for one hour after the swap was built. */
export const RECEIPT_LIFETIME_MS = 3_600_000

export type Claim =
  | { readonly _tag: "NoSwap" }
  | { readonly _tag: "Final"; readonly answer: ReceiptResponse }
  | { readonly _tag: "TooSoon"; readonly retryAfterSec: number }
  | { readonly _tag: "Exhausted" }
  | { readonly _tag: "Claimed"; readonly record: QuoteRecord; readonly swap: BuiltSwap }

/** The request's hashes as a final answer is keyed: lower-case, sorted, once each. */
export const hashesKey = (txHashes: ReadonlyArray<string>): ReadonlyArray<string> =>
  [...new Set(txHashes.map((hash) => hash.toLowerCase()))].sort()

const sameKey = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((hash, i) => hash === b[i])

export const claimRead = (now: number, key: ReadonlyArray<string>): QuoteTransition<Claim> => ({ record }) => {
  const swap = record.swap
  if (swap === null || now - swap.builtAtMs > RECEIPT_LIFETIME_MS) return [{ _tag: "NoSwap" }, undefined]
  const reads = record.receiptReads
  if (reads.final !== null && sameKey(reads.final.txHashes, key)) {
    return [{ _tag: "Final", answer: reads.final.answer }, undefined]
  }
  if (reads.count >= MAX_READS) return [{ _tag: "Exhausted" }, undefined]
  const waitMs = reads.count === 0 ? 0 : reads.lastAtMs + READ_INTERVAL_MS - now
  if (waitMs > 0) return [{ _tag: "TooSoon", retryAfterSec: Math.ceil(waitMs / 1_000) }, undefined]
  const next = { ...record, receiptReads: { ...reads, count: reads.count + 1, lastAtMs: now } }
  return [{ _tag: "Claimed", record: next, swap }, next]
}

/** Keeps an answer that cannot change, so repeating the same request costs no chain read. */
export const keepFinal =
  (key: ReadonlyArray<string>, answer: ReceiptResponse): QuoteTransition<void> => ({ record }) => [undefined, {
    ...record,
    receiptReads: { ...record.receiptReads, final: { txHashes: key, answer } }
  }]

/** `pass`, or `fail` after a fill (`stop`): the chain cannot take either back (short of a reorg). */
export const isFinal = (answer: ReceiptResponse) =>
  answer.result === "pass" || (answer.result === "fail" && answer.next === "stop")

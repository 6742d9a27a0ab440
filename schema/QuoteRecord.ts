/**
 * A stored quote: everything `swap` needs to rebuild, re-check and charge the trade without the quote
 * answer, as a schema so any store (memory, Redis) can encode it to JSON and back. Amounts are bigints
 * in base units (strings when encoded); addresses lower-case hex.
 */
import { Schema } from "effect"
import { Address, Hex } from "./Chain.js"
import { QuoteRequest } from "./QuoteRequest.js"
import { ReceiptResponse } from "./Receipt.js"
import { SafetyVerdict } from "./Token.js"

/** One pool swap of the chosen plan, in execution order: what the router plan is built from. */
export const StoredEdge = Schema.Struct({
  /** Index of the path (leg) the swap belongs to. */
  path: Schema.NonNegativeInt,
  venue: Schema.String,
  kind: Schema.Literal("v2", "v3", "v4", "curve"),
  poolId: Hex,
  tokenIn: Hex,
  tokenOut: Hex,
  amountIn: Schema.BigInt,
  amountOut: Schema.BigInt
})
export type StoredEdge = typeof StoredEdge.Type

/**
 * A priced, executable single-path candidate `swap` may fall back to when the chosen plan cannot
 * execute (a venue the operator disabled, or one the router cannot reach: the spec's endpoint rule 3).
 */
export const Fallback = Schema.Struct({
  edges: Schema.Array(StoredEdge),
  amountIn: Schema.BigInt,
  amountOut: Schema.BigInt,
  minAmountOut: Schema.BigInt,
  maxAmountIn: Schema.BigInt
})
export type Fallback = typeof Fallback.Type

/** The swap last built for the quote (by `swap`, or `swap/tx` finishing a permit round): what `receipt` checks. */
export const BuiltSwap = Schema.Struct({
  builtAtMs: Schema.Number,
  /** The block the swap was simulated at: the router's fills for the quote are searched from here. */
  block: Schema.NonNegativeInt,
  taker: Address,
  recipient: Address,
  minAmountOut: Schema.BigInt,
  amountOutSimulated: Schema.BigInt,
  /** The router's `planHash` of every plan built for this taker and recipient (the latest last, at most
   * `MAX_PLAN_HASHES`): a fill of any other plan is not this quote's swap. */
  planHashes: Schema.Array(Schema.String)
})
export type BuiltSwap = typeof BuiltSwap.Type

/** A quote rebuilt many times keeps the plans of its latest builds: enough for any a taker still holds. */
export const MAX_PLAN_HASHES = 8

/** The plan hashes a new build for `parties` records: the earlier ones for the same parties, then its own. */
export const planHashesAfter = (
  previous: BuiltSwap | null,
  parties: { readonly taker: string; readonly recipient: string },
  planHash: string
): ReadonlyArray<string> => {
  const same = previous !== null && previous.taker === parties.taker && previous.recipient === parties.recipient
  const earlier = same ? previous.planHashes.filter((hash) => hash !== planHash) : []
  return [...earlier, planHash].slice(-MAX_PLAN_HASHES)
}

/** A Permit2 `PermitSingle` as issued for signing. */
export const IssuedPermit = Schema.Struct({
  token: Schema.String,
  amount: Schema.BigInt,
  expiration: Schema.NonNegativeInt,
  nonce: Schema.NonNegativeInt,
  spender: Schema.String,
  sigDeadline: Schema.BigInt
})
export type IssuedPermit = typeof IssuedPermit.Type

/** A `swap` that asked for a permit signature: `swap/tx` finishes it once. */
export const PermitRound = Schema.Struct({
  taker: Address,
  recipient: Address,
  permit: IssuedPermit,
  /** Calldata of the swap as `execute(plan)`: `swap/tx` wraps the same plan with the signed permit. */
  executeData: Hex,
  /** The approvals that came before the placeholder, returned again with the final swap. */
  approvals: Schema.Array(Schema.Struct({ to: Address, data: Hex, gas: Schema.BigInt })),
  swapGas: Schema.BigInt,
  amountOutSimulated: Schema.BigInt,
  /** Failed `swap/tx` calls in this round (5 allowed). */
  failures: Schema.NonNegativeInt,
  /** `open` until finished once (`consumed`) or failed five times (`closed`). */
  state: Schema.Literal("open", "consumed", "closed")
})
export type PermitRound = typeof PermitRound.Type

/**
 * A receipt answer that can no longer change (`pass`, or `fail` after a fill): a repeated call with the
 * same hashes gets it back without a chain read. `fail` + `requote` is not kept: the taker may still
 * resend the swap before its deadline, and a later read must see that fill.
 */
export const FinalReceipt = Schema.Struct({
  /** The request's hashes, lower-case and sorted: another list may change the answer. */
  txHashes: Schema.Array(Schema.String),
  answer: Schema.typeSchema(ReceiptResponse)
})
export type FinalReceipt = typeof FinalReceipt.Type

export const QuoteRecord = Schema.Struct({
  quoteId: Schema.String,
  /** Incremented by every update: a remote store compares it to set a record atomically. */
  version: Schema.NonNegativeInt,
  createdAtMs: Schema.Number,
  expiresAtMs: Schema.Number,
  block: Schema.NonNegativeInt,
  network: Schema.String,
  /** The request as decoded (defaults filled in): a replacement quote repeats it. */
  request: Schema.typeSchema(QuoteRequest),
  sell: Address,
  buy: Address,
  side: Schema.Literal("exactIn", "exactOut"),
  plan: Schema.Struct({
    type: Schema.Literal("direct", "two_hop", "split", "graph"),
    edges: Schema.Array(StoredEdge),
    executable: Schema.Boolean
  }),
  amountIn: Schema.BigInt,
  amountOut: Schema.BigInt,
  /** exactIn: the least output accepted; exactOut: the requested output. */
  minAmountOut: Schema.BigInt,
  /** exactIn: the sell amount; exactOut: the most the swap may spend. */
  maxAmountIn: Schema.BigInt,
  gasUnits: Schema.BigInt,
  /** Only when the plan is not executable: executable candidates, best first. */
  fallbacks: Schema.Array(Fallback),
  safety: Schema.NullOr(SafetyVerdict),
  /** The order's size in micro-dollars, and the price of its `swap` call (USDC base units) from it. */
  orderUsdMicro: Schema.BigInt,
  swapPrice: Schema.BigInt,
  attempts: Schema.Struct({
    /** Failed `swap` calls (5 allowed). */
    swapFailures: Schema.NonNegativeInt,
    /** Whether the one free replacement quote was handed out. */
    replacementIssued: Schema.Boolean,
    /** Whether the paid `swap` was settled (it is paid once per quote). */
    swapPaid: Schema.Boolean
  }),
  /** The permit round the last permit2 `swap` opened, if any. */
  permitRound: Schema.NullOr(PermitRound),
  swap: Schema.NullOr(BuiltSwap),
  /** `receipt` chain reads: one per 5 s, 132 in all; `final` once the answer cannot change. */
  receiptReads: Schema.Struct({
    count: Schema.NonNegativeInt,
    lastAtMs: Schema.Number,
    final: Schema.NullOr(FinalReceipt)
  })
}).annotations({ identifier: "QuoteRecord" })
export type QuoteRecord = typeof QuoteRecord.Type

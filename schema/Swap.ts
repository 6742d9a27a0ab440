/**
 * `swap` and `swap/tx`: from a quote to unsigned transactions.
 */
import { Schema } from "effect"
import { Next } from "./ErrorTable.js"
import { Address, HexString, QuoteId, RawAmount } from "./Primitives.js"

/** On-chain execution deadline; does not extend the quote's lifetime. */
export const DeadlineSec = Schema.Int.pipe(Schema.between(30, 3600)).annotations({
  description: "on-chain deadline in seconds from now, 30 to 3600 (default 300)"
})

export const SwapRequest = Schema.Struct({
  quoteId: QuoteId,
  taker: Address,
  recipient: Schema.optional(Address),
  approval: Schema.optionalWith(Schema.Literal("permit2", "approve"), { default: () => "permit2" as const }),
  deadlineSec: Schema.optionalWith(DeadlineSec, { default: () => 300 })
}).annotations({ identifier: "SwapRequest" })
export type SwapRequest = typeof SwapRequest.Type

export const SwapTxRequest = Schema.Struct({
  quoteId: QuoteId,
  taker: Address,
  recipient: Schema.optional(Address),
  deadlineSec: Schema.optionalWith(DeadlineSec, { default: () => 300 }),
  permit: Schema.Struct({
    message: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    signature: HexString
  })
}).annotations({ identifier: "SwapTxRequest" })
export type SwapTxRequest = typeof SwapTxRequest.Type

export const UnsignedTransaction = Schema.Struct({
  chainId: Schema.Int,
  to: Address,
  data: HexString,
  value: RawAmount.annotations({ description: "native USDC, 18 decimals" }),
  gas: RawAmount,
  purpose: Schema.Literal("approve", "swap", "swap_placeholder").annotations({
    description: "`swap_placeholder` must not be sent: `swap/tx` returns the final swap"
  })
}).annotations({ identifier: "UnsignedTransaction" })

export const SignatureRequest = Schema.Struct({
  kind: Schema.Literal("permit2_single"),
  typedData: Schema.Struct({
    domain: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    types: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    primaryType: Schema.String,
    message: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  })
}).annotations({ identifier: "SignatureRequest" })

export const SwapResponse = Schema.Struct({
  quoteId: QuoteId,
  network: Schema.String,
  block: Schema.NonNegativeInt,
  taker: Address,
  recipient: Address,
  transactions: Schema.Array(UnsignedTransaction),
  signatures: Schema.Array(SignatureRequest),
  minAmountOut: RawAmount,
  amountOutSimulated: RawAmount,
  deadline: Schema.NonNegativeInt.annotations({ description: "unix seconds" }),
  next: Schema.optional(Next)
}).annotations({ identifier: "SwapResponse" })
export type SwapResponse = typeof SwapResponse.Type

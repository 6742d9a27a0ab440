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
  // No default in the type: naming a flow is what turns native funding off (src/swap/FundedSwap.ts).
  approval: Schema.optional(
    Schema.Literal("permit2", "approve").annotations({
      description: "the ERC-20 flow: `permit2` (the default) or `approve`. Named, it is used as named; left out, a " +
        "USDC sell the taker's native balance covers is paid with native value, and Permit2 otherwise",
      default: "permit2"
    })
  ),
  deadlineSec: Schema.optionalWith(DeadlineSec, { default: () => 300 })
}).annotations({ identifier: "SwapRequest" })
export type SwapRequest = typeof SwapRequest.Type

/** A `uint` of the typed data: a decimal string (as issued) or a JSON number. */
const TypedUint = Schema.Union(
  Schema.String.pipe(Schema.pattern(/^(0|[1-9][0-9]*)$/, { message: () => "expected a decimal integer string" })),
  Schema.NonNegativeInt
)

/** The Permit2 `PermitSingle` message, as issued in `signatures[0].typedData.message` and sent back to `swap/tx`. */
export const PermitMessage = Schema.Struct({
  details: Schema.Struct({
    token: Address,
    amount: TypedUint.annotations({ description: "the exact sell amount (exactOut: the most the swap may spend)" }),
    expiration: TypedUint.annotations({ description: "unix seconds; 30 days after issue" }),
    nonce: TypedUint
  }),
  spender: Address.annotations({ description: "the router" }),
  sigDeadline: TypedUint.annotations({ description: "unix seconds; 10 minutes after issue" })
}).annotations({ identifier: "PermitMessage" })
export type PermitMessage = typeof PermitMessage.Type

export const SwapTxRequest = Schema.Struct({
  quoteId: QuoteId,
  taker: Address,
  recipient: Schema.optional(Address),
  deadlineSec: Schema.optionalWith(DeadlineSec, { default: () => 300 }),
  permit: Schema.Struct({
    message: PermitMessage,
    signature: HexString.annotations({ description: "the taker's EIP-712 signature of the typed data" })
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
    domain: Schema.Struct({ name: Schema.String, chainId: Schema.Int, verifyingContract: Address }),
    types: Schema.Record({
      key: Schema.String,
      value: Schema.Array(Schema.Struct({ name: Schema.String, type: Schema.String }))
    }),
    primaryType: Schema.Literal("PermitSingle"),
    message: PermitMessage
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

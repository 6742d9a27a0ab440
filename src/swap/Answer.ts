/**
 * The `swap` / `swap/tx` answer: approvals first, then the swap (or its placeholder), each for the
 * deployment's chain, and the permit to sign when there is one (`next: sign_permit`).
 */
import { Schema } from "effect"
import type { Hex } from "viem"
import { SignatureRequest, type SwapResponse } from "../../schema/Swap.js"
import { permitTypedData } from "../execution/Permit2.js"
import type { PermitSingle } from "../execution/RouterPlan.js"
import { checksumOf } from "../routing/Checksum.js"
import type { BuiltTransaction } from "./Build.js"

export interface AnswerParts {
  readonly quoteId: string
  readonly chainId: number
  readonly block: number
  readonly taker: `0x${string}`
  readonly recipient: `0x${string}`
  readonly transactions: ReadonlyArray<BuiltTransaction>
  /** The permit to sign, with Permit2's address; none once nothing is left to sign. */
  readonly permit: { readonly permit2: Hex; readonly permit: PermitSingle } | undefined
  readonly minAmountOut: bigint
  readonly amountOutSimulated: bigint
  readonly deadline: bigint
}

// Our typed data as the wire type: decoding checksums its addresses into the branded `Address`.
const typedDataOf = Schema.decodeSync(SignatureRequest.fields.typedData)

export const swapAnswer = (parts: AnswerParts): SwapResponse => ({
  quoteId: parts.quoteId,
  network: `eip155:${parts.chainId}`,
  block: parts.block,
  taker: checksumOf(parts.taker),
  recipient: checksumOf(parts.recipient),
  transactions: parts.transactions.map((tx) => ({
    chainId: parts.chainId,
    to: checksumOf(tx.to),
    data: tx.data,
    value: tx.value.toString(),
    gas: tx.gas.toString(),
    purpose: tx.purpose
  })),
  signatures: parts.permit === undefined ? [] : [{
    kind: "permit2_single",
    typedData: typedDataOf(permitTypedData(parts.chainId, parts.permit.permit2, parts.permit.permit))
  }],
  minAmountOut: parts.minAmountOut.toString(),
  amountOutSimulated: parts.amountOutSimulated.toString(),
  deadline: Number(parts.deadline),
  ...(parts.permit === undefined ? {} : { next: "sign_permit" as const })
})

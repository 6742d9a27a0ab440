/**
 * One nonce of the settlement key as the sender (./SettlementSender.ts) signs it and the follower
 * (./SettlementFollow.ts) sees it through to a receipt: shared by both, owned by neither.
 */
import type { Hex } from "viem"
import type { SettlementCall } from "./Transfer.js"

export interface Fees {
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
}

/** One nonce of the settlement key and every transaction signed for it, newest last. */
export interface SentSettlement {
  readonly call: SettlementCall
  readonly nonce: number
  readonly hashes: Array<Hex>
  fees: Fees
  /** The first transaction, signed and not yet handed to the node (`submit`). */
  readonly raw: Hex
  /** When a transaction for this nonce was last sent or tried again; undefined until the node accepts one. */
  sentAt: number | undefined
  /** Settles once the send before it in nonce order has been tried. */
  readonly previous: Promise<unknown>
  readonly tried: () => void
}

/** A settlement signed ahead for the nonce and fees it would get, not taken (./SettlementSender.ts `prepare`). */
export interface Draft {
  readonly call: SettlementCall
  readonly nonce: number
  readonly fees: Fees
  readonly raw: Hex
  readonly hash: Hex
}

export interface SenderOptions {
  readonly pollMs: number
  readonly replaceAfterMs: number
  /** Past the authorization's end, how long a node not answering is waited for (./SettlementFollow.ts). */
  readonly giveUpAfterMs: number
}

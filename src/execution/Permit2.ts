/**
 * The Permit2 `PermitSingle` a taker signs so the router may take the exact sell amount, as EIP-712
 * typed data in JSON form (integers as decimal strings, which wallets and viem sign as numbers), and
 * the signature check `swap/tx` applies before it builds the final transaction. Pure: no transport.
 *
 * - The allowance is the exact sell amount (exactOut: the most the swap may spend) and expires 30 days
 *   after issue; Permit2 spends it down, so it never outlives the trade by more than dust.
 * - The signature deadline is 10 minutes after issue: long enough to sign after a quote of the longest
 *   lifetime (120 s), short enough that a leaked signature is soon worthless.
 */
import { type Address, getAddress, type Hex, recoverTypedDataAddress } from "viem"
import type { PermitSingle } from "./RouterPlan.js"

export const PERMIT_ALLOWANCE_SEC = 30 * 86_400
export const PERMIT_SIGNATURE_SEC = 600

const types = {
  PermitDetails: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint160" },
    { name: "expiration", type: "uint48" },
    { name: "nonce", type: "uint48" }
  ],
  PermitSingle: [
    { name: "details", type: "PermitDetails" },
    { name: "spender", type: "address" },
    { name: "sigDeadline", type: "uint256" }
  ]
} as const

export interface PermitTerms {
  readonly token: Address
  readonly amount: bigint
  /** Permit2's current nonce for (taker, token, router). */
  readonly nonce: number
  readonly spender: Address
  readonly nowSec: number
}

export const permitOf = (terms: PermitTerms): PermitSingle => ({
  details: {
    token: getAddress(terms.token),
    amount: terms.amount,
    expiration: terms.nowSec + PERMIT_ALLOWANCE_SEC,
    nonce: terms.nonce
  },
  spender: getAddress(terms.spender),
  sigDeadline: BigInt(terms.nowSec + PERMIT_SIGNATURE_SEC)
})

/** The typed-data message as JSON: what `signatures[0].typedData.message` carries and `swap/tx` takes back. */
export const permitMessage = (permit: PermitSingle) => ({
  details: {
    token: permit.details.token,
    amount: permit.details.amount.toString(),
    expiration: String(permit.details.expiration),
    nonce: String(permit.details.nonce)
  },
  spender: permit.spender,
  sigDeadline: permit.sigDeadline.toString()
})

const domainOf = (chainId: number, permit2: Address) => ({
  name: "Permit2",
  chainId,
  verifyingContract: getAddress(permit2)
})

export const permitTypedData = (chainId: number, permit2: Address, permit: PermitSingle) => ({
  domain: domainOf(chainId, permit2),
  types,
  primaryType: "PermitSingle" as const,
  message: permitMessage(permit)
})

/** The address that signed `permit`, or undefined when the signature is malformed. */
export const permitSigner = async (
  chainId: number,
  permit2: Address,
  permit: PermitSingle,
  signature: Hex
): Promise<Address | undefined> => {
  try {
    return await recoverTypedDataAddress({
      domain: domainOf(chainId, permit2),
      types,
      primaryType: "PermitSingle",
      message: permit,
      signature
    })
  } catch {
    return undefined
  }
}

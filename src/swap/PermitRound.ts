/**
 * A permit as the quote store keeps it (schema/QuoteRecord.ts `IssuedPermit`) and as the router and
 * Permit2 take it (`PermitSingle`), and what a taker sends back to `swap/tx` read into one.
 */
import { getAddress } from "viem"
import type { IssuedPermit } from "../../schema/QuoteRecord.js"
import type { PermitMessage } from "../../schema/Swap.js"
import type { PermitSingle } from "../execution/RouterPlan.js"

export const storedPermit = (permit: PermitSingle): IssuedPermit => ({
  token: permit.details.token.toLowerCase(),
  amount: permit.details.amount,
  expiration: permit.details.expiration,
  nonce: permit.details.nonce,
  spender: permit.spender.toLowerCase(),
  sigDeadline: permit.sigDeadline
})

export const issuedPermit = (stored: IssuedPermit): PermitSingle => ({
  details: {
    token: getAddress(stored.token),
    amount: stored.amount,
    expiration: stored.expiration,
    nonce: stored.nonce
  },
  spender: getAddress(stored.spender),
  sigDeadline: stored.sigDeadline
})

/** The typed-data `message` a taker sent back, read as a permit. */
export const submittedPermit = (message: PermitMessage): PermitSingle => ({
  details: {
    token: getAddress(message.details.token),
    amount: BigInt(message.details.amount),
    expiration: Number(message.details.expiration),
    nonce: Number(message.details.nonce)
  },
  spender: getAddress(message.spender),
  sigDeadline: BigInt(message.sigDeadline)
})

export const samePermit = (a: PermitSingle, b: PermitSingle): boolean =>
  a.details.token === b.details.token && a.details.amount === b.details.amount &&
  a.details.expiration === b.details.expiration && a.details.nonce === b.details.nonce &&
  a.spender === b.spender && a.sigDeadline === b.sigDeadline

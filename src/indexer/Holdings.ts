/**
 * Balances per token from `Transfer` logs, kept for every ERC-20 the chain shows (a token usually mints
 * long before it gets a pool, and holders can only be counted if that first mint was seen).
 */
import { HashMap, Option } from "effect"
import { type Hex, ZERO_ADDRESS } from "../../schema/Chain.js"
import type { Transfer } from "./Events.js"
import type { Holdings } from "./State.js"

/**
 * Transfers that move balances. Zero-value transfers (address-poisoning spam) and self-transfers change
 * nothing; USDC is skipped because its native form moves the same balance without any log, so counting
 * its holders from logs would be wrong whatever we did.
 */
export const movesBalances = (transfer: Transfer, usdc: Hex): boolean =>
  transfer.value !== 0n && transfer.emitter !== usdc &&
  !(transfer.from === transfer.to && transfer.from !== ZERO_ADDRESS)

export const firstHoldings = (transfer: Transfer): Holdings => ({
  balances: HashMap.empty(),
  holders: 0,
  complete: transfer.from === ZERO_ADDRESS,
  firstBlock: transfer.at.block,
  firstTime: transfer.at.time,
  firstLog: transfer.at.logIndex,
  firstMintTx: transfer.from === ZERO_ADDRESS ? transfer.at.tx : null
})

/** A draft's own holdings record (./Draft.ts): changed in place until the draft is sealed. */
export type DraftHoldings = { -readonly [K in keyof Holdings]: Holdings[K] }

/** A draft's own copy of `holdings` (or of the first record of `transfer`'s token), its balances under mutation. */
export const draftHoldings = (holdings: Holdings | undefined, transfer: Transfer): DraftHoldings => {
  const base = holdings ?? firstHoldings(transfer)
  return { ...base, balances: HashMap.beginMutation(base.balances) }
}

const none = (): bigint => 0n

/**
 * Moves `value` between two balances of a draft's own record, in place: a catch-up moves hundreds of
 * thousands of balances, and a record and a map copy per transfer were most of its cost.
 */
export const applyTransfer = (holdings: DraftHoldings, transfer: Transfer): void => {
  const { from, to, value } = transfer
  if (from !== ZERO_ADDRESS) {
    const before = Option.getOrElse(HashMap.get(holdings.balances, from), none)
    // A balance going negative means transfers the index never saw: the count is no longer exact.
    if (before < value) holdings.complete = false
    const after = before < value ? 0n : before - value
    if (after === 0n) {
      if (before > 0n) holdings.holders -= 1
      holdings.balances = HashMap.remove(holdings.balances, from)
    } else {
      holdings.balances = HashMap.set(holdings.balances, from, after)
    }
  }
  if (to !== ZERO_ADDRESS) {
    const before = Option.getOrElse(HashMap.get(holdings.balances, to), none)
    if (before === 0n) holdings.holders += 1
    holdings.balances = HashMap.set(holdings.balances, to, before + value)
  }
}

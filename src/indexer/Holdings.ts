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

/**
 * Moves `value` between two balances. `balances` may be a map under mutation (`HashMap.beginMutation`),
 * in which case it is changed in place; the returned record holds it either way.
 */
export const applyTransfer = (holdings: Holdings, transfer: Transfer): Holdings => {
  let { balances, complete, holders } = holdings
  const { from, to, value } = transfer
  if (from !== ZERO_ADDRESS) {
    const before = Option.getOrElse(HashMap.get(balances, from), () => 0n)
    // A balance going negative means transfers the index never saw: the count is no longer exact.
    if (before < value) complete = false
    const after = before < value ? 0n : before - value
    if (after === 0n) {
      if (before > 0n) holders -= 1
      balances = HashMap.remove(balances, from)
    } else {
      balances = HashMap.set(balances, from, after)
    }
  }
  if (to !== ZERO_ADDRESS) {
    const before = Option.getOrElse(HashMap.get(balances, to), () => 0n)
    if (before === 0n) holders += 1
    balances = HashMap.set(balances, to, before + value)
  }
  return { ...holdings, balances, holders, complete }
}

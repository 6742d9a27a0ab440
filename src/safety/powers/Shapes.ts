/**
 * Arguments for functions known only by their selector. No ABI says how many arguments a function
 * takes or of which types, so each is called with a few word sequences chosen to reveal an effect and
 * to decode under many signatures at once: ABI decoders ignore words past the last argument, every
 * address is also a valid uint, and 0 and 1 are valid bools. The values are the ones a power needs to
 * show itself: the victim holder's address (blacklist, burn or move its tokens, mint to it), the pool
 * (unlist it), a codeless address (point sells at a router that is not there), 0 and 1 (switches,
 * one-wei amounts or caps), fee-sized numbers (25, 100, 10,000: a percent or a basis-point scale at
 * its ceiling) and a huge amount.
 */
import { type Address, concat, type Hex, numberToHex } from "viem"

export interface Parties {
  readonly victim: Address
  readonly pool: Address
  readonly nowhere: Address
  readonly caller: Address
}

/** Words an argument list is padded to: enough for setters of several fees or limits at once. */
const WIDTH = 6
const HUGE = 10n ** 27n

const padded = (head: ReadonlyArray<bigint>) => {
  const words = [...head]
  while (words.length < WIDTH) words.push(head[head.length - 1]!)
  return words
}

/** The argument words tried for every function, named for the flag's detail. */
export const shapesFor = (
  parties: Parties
): ReadonlyArray<{ readonly label: string; readonly words: ReadonlyArray<bigint> }> => {
  const victim = BigInt(parties.victim)
  const pool = BigInt(parties.pool)
  const nowhere = BigInt(parties.nowhere)
  const caller = BigInt(parties.caller)
  return [
    { label: "()", words: [] },
    { label: "(0)", words: padded([0n]) },
    { label: "(1)", words: padded([1n]) },
    { label: "(25)", words: padded([25n]) },
    { label: "(100)", words: padded([100n]) },
    { label: "(10000)", words: padded([10_000n]) },
    { label: "(10^27)", words: padded([HUGE]) },
    { label: "(holder, 1)", words: padded([victim, 1n]) },
    { label: "(holder, 0)", words: padded([victim, 0n]) },
    { label: "(holder, 10^27)", words: padded([victim, HUGE]) },
    { label: "(holder, caller, 1)", words: padded([victim, caller, 1n]) },
    { label: "(pool, 0)", words: padded([pool, 0n]) },
    { label: "(pool, 1)", words: padded([pool, 1n]) },
    { label: "(codeless address, 1)", words: padded([nowhere, 1n]) },
    // Dynamic arrays: (address[]) and (address[], bool|uint) holding the victim.
    { label: "([holder])", words: [0x20n, 1n, victim] },
    { label: "([holder], 1)", words: [0x40n, 1n, 1n, victim] }
  ]
}

export const calldataOf = (selector: Hex, words: ReadonlyArray<bigint>): Hex =>
  concat([selector, ...words.map((word) => numberToHex(word, { size: 32 }))])

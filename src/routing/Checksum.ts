/**
 * EIP-55 checksums of the addresses a quote answer shows. viem's `getAddress` re-validates and goes
 * through its LRU (a delete and a set per hit) on every call, and one quote checksums the same few dozen
 * pool and token addresses a hundred times or more (route ids, hops, fees); a plain map answers those.
 * Bounded: cleared when it reaches `LIMIT` entries, far more than one market's pools and tokens.
 */
import { type Address, getAddress } from "viem"
import type { Hex } from "../../schema/Chain.js"

const LIMIT = 100_000
const known = new Map<string, Address>()

// The checksummed text for route ids and pool ids; an answer's `Address` fields checksum when encoded.
export const checksumOf = (address: Hex): Address => {
  let found = known.get(address)
  if (found === undefined) {
    if (known.size >= LIMIT) known.clear()
    found = getAddress(address)
    known.set(address, found)
  }
  return found
}

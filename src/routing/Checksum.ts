/**
 * EIP-55 checksums of the addresses a quote answer shows. viem's `getAddress` re-validates and goes
 * through its LRU (a delete and a set per hit) on every call, and one quote checksums the same few dozen
 * pool and token addresses a hundred times or more (route ids, hops, fees); a plain map answers those.
 * Bounded: cleared when it reaches `LIMIT` entries, far more than one market's pools and tokens.
 */
import { type Address, checksummed } from "../../schema/Primitives.js"

const LIMIT = 100_000
const known = new Map<string, Address>()

export const checksumOf = (address: `0x${string}`): Address => {
  let found = known.get(address)
  if (found === undefined) {
    if (known.size >= LIMIT) known.clear()
    found = checksummed(address)
    known.set(address, found)
  }
  return found
}

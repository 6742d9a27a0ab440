/**
 * Taxed, honeypot and capped tokens act on transfers to and from the addresses their owner marks as
 * pools, as their real counterparts do; each new pool holding one of them is marked here.
 */
import { Effect } from "effect"
import { type Address, parseAbi } from "viem"
import type { Market, SeededToken } from "./context.js"

const poolAwareAbi = parseAbi(["function setPool(address pool, bool enabled)"])

export const registerPool = (market: Market, tokens: ReadonlyArray<SeededToken>, pool: Address) =>
  Effect.forEach(
    tokens.filter((t) => t.spec.kind !== "plain"),
    (t) =>
      market.tx.write(
        market.deployer,
        { address: t.address, abi: poolAwareAbi },
        "setPool",
        [pool, true]
      ),
    { discard: true }
  )

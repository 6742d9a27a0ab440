/**
 * The fee of each new pair of a per-pair ("v2.5") v2 venue, read from the pair through the getter its
 * venue file names. Such forks fix a pair's fee when the pair is created, so it is read once, when the
 * index first sees the pair, and kept in the pool's state (and its checkpoint); a fork whose pairs' fees
 * change later would need a venue entry of another kind. Read at the latest block: the fee cannot differ
 * from the one at creation. A pair whose getter fails or answers a fee the service cannot price exactly
 * gets no fee, and the index leaves it out (Apply.ts) with a warning, rather than price it at a guess.
 */
import { Effect } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import type { Hex } from "../../schema/Chain.js"
import { call } from "./Metadata.js"
import type { PerPairFee } from "./Sources.js"

const PIPS = 1_000_000n

/** The getter's answer as pips, when it is one word below the denominator that converts exactly. */
export const feePipsOf = (data: string | undefined, rule: PerPairFee): number | undefined => {
  if (data === undefined || data.length !== 66) return undefined
  const fee = BigInt(data)
  const denominator = BigInt(rule.denominator)
  if (fee >= denominator || (fee * PIPS) % denominator !== 0n) return undefined
  return Number((fee * PIPS) / denominator)
}

export const readPairFees = Effect.fn("Indexer.readPairFees")(function*(pairs: ReadonlyMap<Hex, PerPairFee>) {
  const rpc = yield* ChainRpc
  const read = yield* Effect.forEach(
    pairs,
    ([pair, rule]) => Effect.map(call(rpc, pair, rule.selector), (data) => [pair, feePipsOf(data, rule)] as const),
    { concurrency: 64 }
  )
  const fees = new Map<Hex, number>()
  for (const [pair, fee] of read) {
    if (fee === undefined) yield* Effect.logWarning(`pair ${pair}: its fee getter gave no usable fee; not indexed`)
    else fees.set(pair, fee)
  }
  return fees
})

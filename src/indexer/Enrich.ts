/**
 * What applying a batch of events needs from the chain beyond the logs: metadata of the tokens the
 * batch introduces, the fee of each new pair of a per-pair v2 venue, the sender of each transaction
 * whose trade falls in the 24 h window, and the sender of each new token's first mint (its creator).
 * Read before `applyEvents`, which stays pure.
 */
import { Effect, HashMap, Option } from "effect"
import { type Hex, ZERO_ADDRESS } from "../../schema/Chain.js"
import { senders } from "./ChainSource.js"
import type { ApplyContext } from "./Draft.js"
import type { ChainEvent } from "./Events.js"
import { movesBalances } from "./Holdings.js"
import type { TokenMetadata } from "./Metadata.js"
import { readMetadataOf } from "./MetadataBatch.js"
import { readPairFees } from "./PairFees.js"
import { NATIVE, type PerPairFee, type Sources } from "./Sources.js"
import type { IndexState } from "./State.js"

interface Needs {
  readonly tokens: ReadonlySet<Hex>
  readonly launched: ReadonlySet<Hex>
  /** First transfer of a token the state has never seen, when it is a mint. */
  readonly firstMints: ReadonlyMap<Hex, Hex>
  readonly swapTxs: ReadonlySet<Hex>
  /** New pairs of per-pair v2 venues, with their venue's rule. */
  readonly perPairs: ReadonlyMap<Hex, PerPairFee>
}

/** One pass over the events, tracking pools and tokens they create so later events in the batch count. */
export const needsOf = (
  state: IndexState,
  events: ReadonlyArray<ChainEvent>,
  sources: Sources,
  tradesSince: number
): Needs => {
  const tokens = new Set<Hex>()
  const launched = new Set<Hex>()
  const firstMints = new Map<Hex, Hex>()
  const transferred = new Set<Hex>()
  const pools = new Set<Hex>()
  const learn = (token: Hex) => {
    if (token !== NATIVE && !HashMap.has(state.tokens, token)) tokens.add(token)
  }
  const swapTxs = new Set<Hex>()
  const perPairs = new Map<Hex, PerPairFee>()
  const swapped = (pool: Hex, event: ChainEvent) => {
    if (event.at.time >= tradesSince && (pools.has(pool) || HashMap.has(state.pools, pool))) swapTxs.add(event.at.tx)
  }
  for (const event of events) {
    switch (event._tag) {
      case "Transfer":
        if (!movesBalances(event, sources.usdc) || transferred.has(event.emitter)) break
        transferred.add(event.emitter)
        if (event.from === ZERO_ADDRESS && !HashMap.has(state.holdings, event.emitter)) {
          firstMints.set(event.emitter, event.at.tx)
        }
        break
      case "V2PairCreated":
      case "V3PoolCreated":
        learn(event.token0)
        learn(event.token1)
        pools.add(event._tag === "V2PairCreated" ? event.pair : event.pool)
        if (event._tag === "V2PairCreated") {
          const rule = sources.v2Fees.get(sources.v2Factories.get(event.emitter) ?? "")
          if (rule?._tag === "PerPair") perPairs.set(event.pair, rule)
        }
        break
      case "V4Initialize":
        learn(event.currency0)
        learn(event.currency1)
        pools.add(event.id)
        break
      case "TokenCreated":
        learn(event.token)
        launched.add(event.token)
        break
      case "V2Swap":
      case "V3Swap":
        swapped(event.emitter, event)
        break
      case "V4Swap":
        swapped(event.id, event)
        break
    }
  }
  return { tokens, launched, firstMints, swapTxs, perPairs }
}

/**
 * Metadata of the tokens `events` introduce as far as `state` knows, read before the events are applied
 * (while the logs after them are still being read): a state older than the one they will be applied to
 * at most asks for a token more; `enrich` reads whatever this missed.
 */
export const readAhead = (state: IndexState, events: ReadonlyArray<ChainEvent>, sources: Sources) =>
  readMetadataOf([...needsOf(state, events, sources, Number.POSITIVE_INFINITY).tokens])

/** What was read for the events before `enrich` (`readAhead`, a block's senders): not asked again. */
export interface Known {
  readonly metadata?: ReadonlyMap<Hex, TokenMetadata>
  readonly senders?: ReadonlyMap<Hex, Hex>
}

export const enrich = Effect.fn("Indexer.enrich")(function*(
  state: IndexState,
  events: ReadonlyArray<ChainEvent>,
  sources: Sources,
  tradesSince: number,
  known: Known = {}
) {
  const needs = needsOf(state, events, sources, tradesSince)
  const knownMetadata = known.metadata ?? new Map<Hex, TokenMetadata>()
  const knownSenders = known.senders ?? new Map<Hex, Hex>()
  const missing = [...needs.tokens].filter((token) => !knownMetadata.has(token))
  const metadata = missing.length === 0
    ? knownMetadata
    : new Map([...knownMetadata, ...(yield* readMetadataOf(missing))])
  const pairFees = yield* readPairFees(needs.perPairs)
  const creatorTxs = [...needs.tokens].flatMap((token) => {
    if (needs.launched.has(token)) return []
    const held = Option.getOrUndefined(HashMap.get(state.holdings, token))
    const tx = held === undefined ? needs.firstMints.get(token) : held.firstMintTx
    return tx === undefined || tx === null ? [] : [tx]
  })
  const asked = [...needs.swapTxs, ...creatorTxs].filter((tx) => !knownSenders.has(tx))
  const found = new Map([...knownSenders, ...(yield* senders(asked))])
  const context: ApplyContext = {
    sources,
    metadata,
    pairFees,
    senders: found,
    tradesSince
  }
  return context
})

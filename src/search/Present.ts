/**
 * An assessed token as the answer shows it: decimal strings, checksummed addresses, ISO times, and the
 * evidence that needs the token's trades and holdings (computed only for tokens actually returned).
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { MatchKind, TokenResult } from "../../schema/Token.js"
import { NATIVE } from "../indexer/Sources.js"
import { DAY_SEC } from "../indexer/State.js"
import type { Pool } from "../math/PoolState.js"
import { usdOf, usdString } from "../pricing/Usd.js"
import { searchSafety } from "../safety/SearchVerdict.js"
import type { TokenVerdicts } from "../safety/VerdictBook.js"
import type { Assessment } from "./Assess.js"
import { symbolGroup } from "./Catalog.js"
import type { SearchView } from "./View.js"

/** Venues listed per result: the deepest pools. */
export const MAX_VENUES = 20

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString()

const symbolOf = (view: SearchView, token: Hex): string => {
  if (token === NATIVE) return "USDC"
  const facts = Option.getOrUndefined(HashMap.get(view.snapshot.state.tokens, token))
  return facts?.metadataOk === true ? facts.symbol : view.book.listed.get(token)?.symbol ?? facts?.symbol ?? ""
}

const feeBpsOf = (pool: Pool): number | null => pool.kind !== "v2" && pool.dynamicFee ? null : pool.feePips / 100

const venueOf = (view: SearchView, pool: Pool, token: Hex) => ({
  venue: pool.venue,
  poolId: pool.kind === "v4" ? pool.id : view.checksum(pool.id),
  pair: symbolOf(view, pool.token0 === token ? pool.token1 : pool.token0),
  feeBps: feeBpsOf(pool),
  hooks: pool.kind !== "v2" && pool.hooks !== null ? view.checksum(pool.hooks) : null
})

/** USD volume and distinct senders over the 24 h before the snapshot's block. */
const activity = (view: SearchView, token: Hex) => {
  const state = view.snapshot.state
  const since = state.time - DAY_SEC
  const chunks = Option.getOrElse(HashMap.get(state.trades, token), () => [])
  const price = view.valuation.price(token)
  const traders = new Set<Hex>()
  let volume = 0n
  for (const trades of chunks) {
    for (const trade of trades) {
      if (trade.time < since) continue
      traders.add(trade.trader)
      volume += trade.usdMicro ?? (price === undefined ? 0n : usdOf(trade.amount, price))
    }
  }
  return { volume, traders: traders.size }
}

const firstWithTicker = (view: SearchView, assessment: Assessment): boolean => {
  const facts = assessment.facts
  if (facts === undefined) return false
  const state = view.snapshot.state
  return symbolGroup(view.catalog, assessment.token.symbolKey).every((member) => {
    if (member.address === facts.address) return true
    const other = Option.getOrUndefined(HashMap.get(state.tokens, member.address))
    if (other === undefined) return true
    return facts.createdBlock !== other.createdBlock
      ? facts.createdBlock < other.createdBlock
      : facts.createdLog !== other.createdLog
      ? facts.createdLog < other.createdLog
      : facts.seq < other.seq
  })
}

/** Creators of verified tokens the chain has shown, once per view. */
const creatorsMemo = new WeakMap<SearchView, ReadonlySet<Hex>>()
const verifiedCreators = (view: SearchView): ReadonlySet<Hex> => {
  const known = creatorsMemo.get(view)
  if (known !== undefined) return known
  const creators = new Set<Hex>()
  for (const address of view.book.listed.keys()) {
    const creator = Option.getOrUndefined(HashMap.get(view.snapshot.state.tokens, address))?.creator
    if (creator !== undefined && creator !== null) creators.add(creator)
  }
  creatorsMemo.set(view, creators)
  return creators
}

export const present = (
  view: SearchView,
  assessment: Assessment,
  match: MatchKind,
  verdicts: TokenVerdicts | undefined
): TokenResult => {
  const { facts, figures, listed, token } = assessment
  const { flags: taxFlags, safety, safetyByRoute } = searchSafety(verdicts, view.snapshot.state.block)
  const state = view.snapshot.state
  const useChain = facts !== undefined && (facts.metadataOk || listed === undefined)
  const { traders, volume } = activity(view, token.address)
  const holdings = Option.getOrUndefined(HashMap.get(state.holdings, token.address))
  const depth = usdString(figures.depthMicro)
  const volume24hUsd = usdString(volume)
  return {
    address: view.checksum(token.address),
    symbol: useChain ? facts.symbol : listed?.symbol ?? "",
    name: useChain ? facts.name : listed?.name ?? "",
    decimals: useChain ? facts.decimals : listed?.decimals ?? 18,
    match,
    verification: listed?.verification ?? view.book.unverified,
    evidence: {
      firstWithTicker: firstWithTicker(view, assessment),
      creatorLinked: facts !== undefined && facts.creator !== null && verifiedCreators(view).has(facts.creator),
      depth2PctUsd: depth,
      depthKind: assessment.measured ? "measured" : "lower_bound",
      depthAgeSec: Math.max(0, view.snapshot.headTime - state.time),
      volume24hUsd,
      traders24h: traders,
      ageHours: facts === undefined || state.time === 0
        ? null
        : Math.round((Math.max(0, state.time - facts.createdTime) / 3600) * 100) / 100,
      posterior: null
    },
    discovered: facts === undefined ? "token_list" : "index",
    origin: {
      launchpad: facts?.launchpad ?? null,
      creator: facts === undefined || facts.creator === null ? null : view.checksum(facts.creator),
      createdBlock: facts?.createdBlock ?? null,
      createdAt: facts === undefined || facts.createdTime === 0 ? null : iso(facts.createdTime)
    },
    state: assessment.state,
    venues: figures.pools.slice(0, MAX_VENUES).map(({ pool }) => venueOf(view, pool, token.address)),
    liquidityUsd: usdString(figures.liquidityMicro),
    depth2PctUsd: depth,
    volume24hUsd,
    holders: holdings?.complete === true ? holdings.holders : null,
    safety,
    safetyByRoute,
    flags: taxFlags.length === 0 ? assessment.flags : [...taxFlags, ...assessment.flags]
  }
}

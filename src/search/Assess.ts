/**
 * One token judged within a view: verification, flags, state and USD figures. Cheap enough to run on
 * every candidate of a query (the figures are memoized per snapshot); the full answer with evidence is
 * built only for the results returned (`Present.ts`).
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { TokenFlag, TokenState } from "../../schema/Token.js"
import type { TokenFacts } from "../indexer/State.js"
import type { TokenFigures } from "../pricing/Valuation.js"
import { type CatalogToken, symbolGroup } from "./Catalog.js"
import type { Listed } from "./Verification.js"
import type { SearchView } from "./View.js"

export interface Assessment {
  readonly token: CatalogToken
  readonly facts: TokenFacts | undefined
  readonly listed: Listed | undefined
  readonly figures: TokenFigures
  readonly flags: ReadonlyArray<TokenFlag>
  readonly state: TokenState
  /** Depth measured exactly: every pool priced with its exact math, and no unmeasured curve. */
  readonly measured: boolean
}

export const stateOf = (facts: TokenFacts | undefined): TokenState => {
  if (facts === undefined) return "no_pool"
  if (facts.launchpad !== null) return facts.graduated ? "graduated" : "bonding_curve"
  return facts.pools.length > 0 ? "pool_only" : "no_pool"
}

const impersonates = (view: SearchView, token: CatalogToken): boolean => {
  const copies = (keys: ReadonlyMap<string, ReadonlySet<string>>, key: string) => {
    const holders = keys.get(key)
    return holders !== undefined && !holders.has(token.address)
  }
  return (token.symbolKey !== "" && copies(view.canon.symbols, token.symbolKey)) ||
    (token.nameKey !== "" && copies(view.canon.names, token.nameKey))
}

const sharesTicker = (view: SearchView, token: CatalogToken): boolean => {
  if (token.symbolKey === "") return false
  const group = symbolGroup(view.catalog, token.symbolKey)
  return group.length > 1 && group.every((member) => !view.book.listed.has(member.address))
}

/** Tokens already assessed, per view: a view is one snapshot, so an assessment never goes stale in it. */
const assessed = new WeakMap<SearchView, Map<Hex, Assessment>>()

export const assess = (view: SearchView, token: CatalogToken): Assessment => {
  let memo = assessed.get(view)
  if (memo === undefined) {
    memo = new Map()
    assessed.set(view, memo)
  }
  const known = memo.get(token.address)
  if (known !== undefined) return known
  const facts = Option.getOrUndefined(HashMap.get(view.snapshot.state.tokens, token.address))
  const listed = view.book.listed.get(token.address)
  const figures = view.valuation.figures(token.address)
  const flags: Array<TokenFlag> = []
  if (figures.pools.some(({ pool }) => pool.kind === "v4" && pool.hooks !== null)) flags.push("hooked_pool")
  if (listed === undefined) {
    if (impersonates(view, token)) flags.push("impersonates_canonical")
    if (sharesTicker(view, token)) flags.push("shared_ticker")
  }
  const tokenState = stateOf(facts)
  const assessment: Assessment = {
    token,
    facts,
    listed,
    figures,
    flags,
    state: tokenState,
    measured: figures.exact && tokenState !== "bonding_curve"
  }
  memo.set(token.address, assessment)
  return assessment
}

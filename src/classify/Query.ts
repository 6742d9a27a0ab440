/**
 * A search query against a view: match, rank, resolve. Pure and synchronous, so an answer describes
 * exactly one snapshot.
 *
 * Matching (case-insensitive, normalized): a full `0x` address; an exact symbol; an exact name; a prefix
 * of a symbol, a name or a word of a name. A leading `$` is ignored ("$PEPE").
 */
import type { Resolution } from "../../schema/Search.js"
import type { MatchKind } from "../../schema/Token.js"
import { assess, type Assessment } from "./Assess.js"
import { byAddress, type CatalogToken, nameGroup, normalize, symbolGroup, withPrefix } from "./Catalog.js"
import type { SearchView } from "./View.js"

/** Prefix matches ranked per query; a one-letter prefix of a large market stops here. */
export const MAX_PREFIX_CANDIDATES = 1_000

export interface Ranked {
  readonly assessment: Assessment
  readonly match: MatchKind
}

export interface QueryOutcome {
  readonly resolution: Resolution
  /** Every match, most relevant first. */
  readonly ranked: ReadonlyArray<Ranked>
}

const tier: Record<MatchKind, number> = { address: 0, symbol: 1, name: 2, prefix: 3 }

const compare = (a: Ranked, b: Ranked): number => {
  const impostorA = a.assessment.flags.includes("impersonates_canonical") ? 1 : 0
  const impostorB = b.assessment.flags.includes("impersonates_canonical") ? 1 : 0
  if (impostorA !== impostorB) return impostorA - impostorB
  if (tier[a.match] !== tier[b.match]) return tier[a.match] - tier[b.match]
  const trustA = a.assessment.listed?.verification.trust ?? Number.POSITIVE_INFINITY
  const trustB = b.assessment.listed?.verification.trust ?? Number.POSITIVE_INFINITY
  if (trustA !== trustB) return trustA < trustB ? -1 : 1
  const depthA = a.assessment.figures.depthMicro
  const depthB = b.assessment.figures.depthMicro
  if (depthA !== depthB) return depthA > depthB ? -1 : 1
  const liquidityA = a.assessment.figures.liquidityMicro
  const liquidityB = b.assessment.figures.liquidityMicro
  if (liquidityA !== liquidityB) return liquidityA > liquidityB ? -1 : 1
  const ageA = a.assessment.facts?.createdBlock ?? Number.POSITIVE_INFINITY
  const ageB = b.assessment.facts?.createdBlock ?? Number.POSITIVE_INFINITY
  if (ageA !== ageB) return ageA - ageB
  return a.assessment.token.address < b.assessment.token.address ? -1 : 1
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

const candidates = (view: SearchView, query: string): ReadonlyArray<readonly [CatalogToken, MatchKind]> => {
  const trimmed = query.trim()
  if (ADDRESS.test(trimmed)) {
    const token = byAddress(view.catalog, trimmed.toLowerCase())
    return token === undefined ? [] : [[token, "address"]]
  }
  const key = normalize(trimmed.replace(/^\$/, ""))
  if (key === "") return []
  const found = new Map<string, readonly [CatalogToken, MatchKind]>()
  const add = (tokens: ReadonlyArray<CatalogToken>, match: MatchKind) => {
    for (const token of tokens) if (!found.has(token.address)) found.set(token.address, [token, match])
  }
  add(symbolGroup(view.catalog, key), "symbol")
  add(nameGroup(view.catalog, key), "name")
  add(withPrefix(view.catalog, key, MAX_PREFIX_CANDIDATES), "prefix")
  return [...found.values()]
}

/**
 * - `address`: the query was the address of an unverified token;
 * - `verified`: the first result is verified and it is the only verified match;
 * - `unverified`: a single match, not verified;
 * - `ambiguous`: anything else: several verified matches, or several matches none of them verified.
 */
const resolve = (ranked: ReadonlyArray<Ranked>): Resolution => {
  const top = ranked[0]!
  const verified = ranked.filter((entry) => entry.assessment.listed !== undefined).length
  if (top.assessment.listed !== undefined && verified === 1) return "verified"
  if (top.match === "address") return "address"
  return ranked.length === 1 ? "unverified" : "ambiguous"
}

/** `undefined` when nothing matches. */
export const runQuery = (view: SearchView, query: string): QueryOutcome | undefined => {
  const ranked = candidates(view, query)
    .map(([token, match]): Ranked => ({ assessment: assess(view, token), match }))
    .sort(compare)
  return ranked.length === 0 ? undefined : { resolution: resolve(ranked), ranked }
}

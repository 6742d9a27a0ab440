/**
 * A search query against a view: match, rank, resolve. Pure and synchronous, so an answer describes
 * exactly one snapshot.
 *
 * Matching (case-insensitive, normalized): a full `0x` address; an exact symbol; an exact name; a prefix
 * of a symbol, a name or a word of a name. A leading `$` is ignored ("$PEPE").
 */
import { Option } from "effect"
import { addressOption } from "../../schema/Chain.js"
import type { Resolution } from "../../schema/Search.js"
import type { MatchKind } from "../../schema/Token.js"
import { assess, type Assessment } from "./Assess.js"
import { byAddress, type CatalogToken, nameGroup, normalize, symbolGroup, withPrefix } from "./Catalog.js"
import type { SearchView } from "./View.js"

/**
 * Unverified prefix matches ranked per query, in key order; a one-letter prefix of a large market
 * stops here. Verified tokens matching the prefix are always candidates, wherever their keys sort.
 */
export const MAX_PREFIX_CANDIDATES = 200

export interface Ranked {
  readonly assessment: Assessment
  readonly match: MatchKind
}

export interface QueryOutcome {
  readonly resolution: Resolution
  /** The matches, most relevant first. */
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

type Candidate = readonly [CatalogToken, MatchKind]

/**
 * `strong`: the address, exact symbols and names, and every verified token matching as a prefix;
 * `weak`: the other prefix matches, needed only when the strong ones do not fill the answer.
 */
const candidates = (view: SearchView, query: string) => {
  const found = new Map<string, Candidate>()
  const add = (tokens: ReadonlyArray<CatalogToken>, match: MatchKind) => {
    const added: Array<Candidate> = []
    for (const token of tokens) {
      if (found.has(token.address)) continue
      const candidate = [token, match] as const
      found.set(token.address, candidate)
      added.push(candidate)
    }
    return added
  }
  const trimmed = query.trim()
  const address = addressOption(trimmed)
  if (Option.isSome(address)) {
    const token = byAddress(view.catalog, address.value)
    return { strong: add(token === undefined ? [] : [token], "address"), weak: () => [] }
  }
  const key = normalize(trimmed.replace(/^\$/, ""))
  if (key === "") return { strong: [], weak: () => [] }
  const verified = view.canon.listed.filter((listed) => listed.keys.some((k) => k.startsWith(key)))
  const strong = [
    ...add(symbolGroup(view.catalog, key), "symbol"),
    ...add(nameGroup(view.catalog, key), "name"),
    ...add(verified.flatMap((listed) => byAddress(view.catalog, listed.address) ?? []), "prefix")
  ]
  return { strong, weak: () => add(withPrefix(view.catalog, key, MAX_PREFIX_CANDIDATES), "prefix") }
}

/**
 * Over the matches of the best kind found (address, else exact symbol, else exact name, else prefix):
 * - `verified`: the first result is verified and no other match is;
 * - `address`: the query was the address of an unverified token;
 * - `unverified`: a single best match, not verified;
 * - `ambiguous`: anything else: several verified matches, or several best matches none verified.
 */
const resolve = (ranked: ReadonlyArray<Ranked>): Resolution => {
  const top = ranked[0]!
  const verified = ranked.filter((entry) => entry.assessment.listed !== undefined).length
  if (top.assessment.listed !== undefined && verified === 1) return "verified"
  if (top.match === "address") return "address"
  const best = Math.min(...ranked.map((entry) => tier[entry.match]))
  return ranked.filter((entry) => tier[entry.match] === best).length === 1 ? "unverified" : "ambiguous"
}

const rank = (view: SearchView, found: ReadonlyArray<Candidate>): Array<Ranked> =>
  found.map(([token, match]): Ranked => ({ assessment: assess(view, token), match }))

/**
 * `undefined` when nothing matches. When the strong matches already fill `limit` (impersonators aside),
 * the weaker prefix matches are not looked at: they could only rank below.
 */
export const runQuery = (view: SearchView, query: string, limit: number): QueryOutcome | undefined => {
  const { strong, weak } = candidates(view, query)
  let ranked = rank(view, strong)
  // Impersonators rank after any prefix match, so they do not count towards a full answer.
  const credible = ranked.filter((entry) => !entry.assessment.flags.includes("impersonates_canonical")).length
  if (credible < limit) ranked = ranked.concat(rank(view, weak()))
  ranked.sort(compare)
  return ranked.length === 0 ? undefined : { resolution: resolve(ranked), ranked }
}

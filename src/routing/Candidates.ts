/**
 * Candidate paths of a trade: every pool that trades the pair directly, and chains of pools through hub
 * tokens (the token list's hubs and USDC, an input) up to `maxHops`. A token appears at most once per
 * path, so no path can trade through the same pool twice.
 */
import { Option } from "effect"
import { addressOption, type Hex } from "../../schema/Chain.js"
import { hasLiquidity, type Market } from "./Market.js"
import { makePath, type Path, type PathHop } from "./Path.js"

/** Token-list tag that marks a token as a routing hub; USDC is always one. */
export const HUB_TAG = "hub"

/** The token list's hubs on `chainId`, lowercased; callers add USDC, which is always a hub. */
export const listedHubs = (
  tokens: ReadonlyArray<
    { readonly chainId: number; readonly address: string; readonly tags?: ReadonlyArray<string> | undefined }
  >,
  chainId: number
): Array<Hex> =>
  tokens
    .filter((token) => token.chainId === chainId && (token.tags ?? []).includes(HUB_TAG))
    .flatMap((token) => Option.toArray(addressOption(token.address)))

export interface CandidateOptions {
  readonly maxHops: number
  /** Tokens a path may pass through. */
  readonly hubs: ReadonlyArray<Hex>
  /** Venue filter: the request's `venues` / `excludeVenues` and the operator's disabled venues. */
  readonly allowVenue: (venue: string) => boolean
  /** Stop enumerating past this many paths (shortest paths come first). */
  readonly limit?: number
}

export const candidatePaths = (market: Market, tokenIn: Hex, tokenOut: Hex, options: CandidateOptions): Array<Path> => {
  const limit = options.limit ?? 1000
  const hubs = [...new Set(options.hubs)].filter((hub) => hub !== tokenIn && hub !== tokenOut)
  const hopsBetween = (a: Hex, b: Hex): ReadonlyArray<PathHop> =>
    market.poolsBetween(a, b).flatMap((id) => {
      const pool = market.pool(id)
      return pool !== undefined && options.allowVenue(pool.venue) && hasLiquidity(pool)
        ? [{ poolId: pool.id, venue: pool.venue, kind: pool.kind, tokenIn: a, tokenOut: b }]
        : []
    })
  const found: Array<Path> = []
  // Shortest paths first, so the limit drops the longest.
  for (let length = 1; length <= options.maxHops; length++) {
    const extend = (token: Hex, hops: ReadonlyArray<PathHop>, seen: ReadonlySet<Hex>): void => {
      if (hops.length === length - 1) {
        for (const hop of hopsBetween(token, tokenOut)) {
          if (found.length < limit) found.push(makePath([...hops, hop]))
        }
        return
      }
      for (const hub of hubs) {
        if (seen.has(hub)) continue
        for (const hop of hopsBetween(token, hub)) extend(hub, [...hops, hop], new Set([...seen, hub]))
      }
    }
    extend(tokenIn, [], new Set([tokenIn]))
  }
  return found
}

/**
 * The venue predicate of a request: only `venues` when given, never `excludeVenues` nor the venues the
 * operator disabled. Unknown ids are the operation's to refuse (`unknown_venue`) before it gets here.
 */
export const venueFilter = (filter: {
  readonly venues?: ReadonlyArray<string> | undefined
  readonly excludeVenues?: ReadonlyArray<string> | undefined
  readonly disabled?: ReadonlyArray<string> | undefined
}) =>
(venue: string): boolean =>
  (filter.venues === undefined || filter.venues.includes(venue)) &&
  !(filter.excludeVenues ?? []).includes(venue) &&
  !(filter.disabled ?? []).includes(venue)

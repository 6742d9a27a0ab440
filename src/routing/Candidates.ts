/**
 * Candidate paths of a trade: every pool that trades the pair directly, and chains of pools through hub
 * tokens (the token list's hubs and USDC, an input) up to `maxHops`. A token appears at most once per
 * path, so no path can trade through the same pool twice.
 */
import type { Hex } from "../indexer/Events.js"
import type { RoutablePool } from "../math/Hop.js"
import { hasLiquidity, type Market } from "./Market.js"
import { makePath, type Path, type PathHop } from "./Path.js"

export interface CandidateOptions {
  readonly maxHops: number
  /** Tokens a path may pass through. */
  readonly hubs: ReadonlyArray<Hex>
  /** Venue filter: the request's `venues` / `excludeVenues` and the operator's disabled venues. */
  readonly allowVenue: (venue: string) => boolean
  /** Stop enumerating past this many paths (shortest paths come first). */
  readonly limit?: number
}

const otherToken = (pool: RoutablePool, token: Hex): Hex => (pool.token0 === token ? pool.token1 : pool.token0)

export const candidatePaths = (market: Market, tokenIn: Hex, tokenOut: Hex, options: CandidateOptions): Array<Path> => {
  const limit = options.limit ?? 1000
  const hubs = new Set(options.hubs)
  const usable = (id: Hex): RoutablePool | undefined => {
    const pool = market.pool(id)
    return pool !== undefined && options.allowVenue(pool.venue) && hasLiquidity(pool) ? pool : undefined
  }
  const found: Array<Path> = []
  // Breadth first by length so the limit drops the longest paths.
  for (let length = 1; length <= options.maxHops; length++) {
    const extend = (token: Hex, hops: ReadonlyArray<PathHop>, seen: ReadonlySet<Hex>): void => {
      for (const id of market.poolsOf(token)) {
        if (found.length >= limit) return
        const pool = usable(id)
        if (pool === undefined) continue
        const next = otherToken(pool, token)
        if (seen.has(next)) continue
        const hop: PathHop = { poolId: pool.id, venue: pool.venue, kind: pool.kind, tokenIn: token, tokenOut: next }
        const last = hops.length + 1 === length
        if (last) {
          if (next === tokenOut) found.push(makePath([...hops, hop]))
        } else if (hubs.has(next) && next !== tokenOut) {
          extend(next, [...hops, hop], new Set([...seen, next]))
        }
      }
    }
    extend(tokenIn, [], new Set([tokenIn]))
  }
  return found
}

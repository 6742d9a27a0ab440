/**
 * The routes the scan measures a token on: for each of the token's own pools, the best USDC → token
 * path that ends in it (direct, or through a hub), priced exactly for the probe size on the indexed
 * pools; the few with the most output, best first. A path a pool cannot price exactly (a hook that
 * sets the fee or returns deltas) or cannot fill at the probe size is not measured.
 */
import type { Hex } from "../../schema/Chain.js"
import { candidatePaths } from "../routing/Candidates.js"
import type { Market } from "../routing/Market.js"
import { noTaxes, type Path, runPath } from "../routing/Path.js"

export interface RouteChoice {
  readonly market: Market
  readonly usdc: Hex
  readonly token: Hex
  readonly hubs: ReadonlyArray<Hex>
  readonly allowVenue: (venue: string) => boolean
  readonly probe: bigint
  readonly maxRoutes: number
}

/** Two hops reach a token paired only with a hub (WETH, …), as a quote's default `maxHops` does. */
const MAX_HOPS = 2

export const scanRoutes = (choice: RouteChoice): ReadonlyArray<Path> => {
  const paths = candidatePaths(choice.market, choice.usdc, choice.token, {
    maxHops: MAX_HOPS,
    hubs: choice.hubs,
    allowVenue: choice.allowVenue
  })
  const bestByPool = new Map<Hex, { readonly path: Path; readonly out: bigint }>()
  for (const path of paths) {
    const run = runPath(path, "exactIn", choice.probe, choice.market.pool, noTaxes)
    if (run._tag !== "Filled") continue
    const pool = path.hops[path.hops.length - 1]!.poolId
    const known = bestByPool.get(pool)
    if (known === undefined || run.amountOut > known.out) bestByPool.set(pool, { path, out: run.amountOut })
  }
  return [...bestByPool.values()]
    .sort((a, b) => (a.out === b.out ? 0 : a.out > b.out ? -1 : 1))
    .slice(0, choice.maxRoutes)
    .map(({ path }) => path)
}

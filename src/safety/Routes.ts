/**
 * The routes the scan measures a token on: for each of the token's own pools, the best USDC → token
 * path that ends in it (direct, or through a hub), priced exactly for the probe size on the indexed
 * pools; the few with the most output, best first. A path through a hooked pool (a hook that sets the
 * fee or returns deltas) cannot be priced from the index but can be measured all the same: the round
 * trip runs through the router, hook included. Such paths rank after every exactly priced one, so a
 * token that trades only in hooked pools (where launchpads graduate tokens) still gets a verdict. A
 * path that cannot fill at the probe size is not measured.
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

/** Ranks a path that only a simulation can price below every priced one. */
const UNPRICED = -1n

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
    const hooked = run._tag === "NeedsSimulation" && run.reason !== "fee_on_transfer_input"
    if (run._tag !== "Filled" && !hooked) continue
    const out = run._tag === "Filled" ? run.amountOut : UNPRICED
    const pool = path.hops[path.hops.length - 1]!.poolId
    const known = bestByPool.get(pool)
    if (known === undefined || out > known.out) bestByPool.set(pool, { path, out })
  }
  return [...bestByPool.values()]
    .sort((a, b) => (a.out === b.out ? 0 : a.out > b.out ? -1 : 1))
    .slice(0, choice.maxRoutes)
    .map(({ path }) => path)
}

/**
 * A quote's second step: the route request (the venues the caller allows, the hubs, gas at the block's
 * price netted in the token the order optimises) and route search over the index, hooked pools priced
 * through their venue's quoter; an exact-output plan chained through a taxed hub is searched again
 * without it (../TaxedHubs.ts). No plan is an error that says why (./NoRoute.ts).
 */
import { Effect } from "effect"
import { Deployment } from "../../../layers/Deployment.js"
import { Venues } from "../../../layers/Venues.js"
import type { Hex } from "../../../schema/Chain.js"
import { PRICE_SCALE } from "../../pricing/Usd.js"
import { listedHubs } from "../../routing/Candidates.js"
import { findRoute, pendingSimulations, type RouteRequest, type RouteResult } from "../../routing/FindRoute.js"
import { defaultHopGas, defaultPathGas } from "../../routing/Gas.js"
import { marketFromIndex } from "../../routing/Market.js"
import type { Plan } from "../../routing/Plan.js"
import { GasPrice } from "../GasPrice.js"
import { HookedPools } from "../HookedPools.js"
import { TaxedHubs } from "../TaxedHubs.js"
import { viewMemo } from "../ViewMemo.js"
import { noRoute } from "./NoRoute.js"
import type { Sides } from "./Sides.js"

/** A route search that found a plan. */
export interface PricedRoutes extends RouteResult {
  readonly best: Plan
}

export interface Routed extends Sides {
  /** Without the hubs in `avoided`. */
  readonly search: RouteRequest
  readonly gasPriceWei: bigint
  /** Priced without transfer taxes: the safety check measures them next (./Judge.ts). */
  readonly untaxed: PricedRoutes
}

/** Route search for `search`, the paths through hooked pools priced by simulation at `block`. */
export const priceRoutes = (search: RouteRequest, block: number) =>
  Effect.flatMap(HookedPools, (hooked) => hooked.price(search, findRoute(search), block))

// Untraced: the route step's span covers it.
const routeRequest = Effect.fnUntraced(function*(sides: Sides, gasPriceWei: bigint) {
  const deployment = yield* Deployment
  const venues = yield* Venues
  const { request } = sides
  const named = request.venues ?? []
  const excluded = new Set(request.excludeVenues ?? [])
  const objectivePrice = sides.price(request.side === "exactIn" ? sides.buyToken : sides.sellToken)
  const search: RouteRequest = {
    market: marketFromIndex(sides.view.snapshot.state, sides.curves),
    tokenIn: sides.sellToken,
    tokenOut: sides.buyToken,
    side: request.side,
    amount: sides.amount,
    hubs: [...new Set([sides.usdc, ...listedHubs(deployment.tokenList.tokens, deployment.chainId)])],
    maxHops: request.maxHops,
    maxSplits: request.maxSplits,
    // Operator-disabled venues are skipped unless the caller names them; then the plan may use them but
    // is not executable (spec rule 3).
    allowVenue: (id) =>
      (named.length === 0 || named.includes(id)) && !excluded.has(id) &&
      (venues.byId(id)?.enabled !== false || named.includes(id)),
    gas: {
      perHop: defaultHopGas,
      perPath: defaultPathGas,
      gasPriceWei,
      tokenPrice: objectivePrice === undefined || objectivePrice === 0n
        ? null
        : { tokenRaw: PRICE_SCALE, usdcRaw: objectivePrice }
    }
  }
  return search
})

/**
 * Searches already made on a view, by the request's terms that shape them (all else in a route request,
 * the hubs, venues, curves and token prices, is the deployment's or the view's). Kept only when nothing
 * is left for a simulation to price, so a repeat never stops short of what a fresh search would find.
 */
const searches = viewMemo<Searched>(16)

interface Searched {
  readonly search: RouteRequest
  readonly result: RouteResult
  /** Taxed hubs an exact-output plan passed through, left out of `search`. */
  readonly avoided: ReadonlyArray<Hex>
}

const searchKey = ({ amount, buyToken, request, sellToken }: Sides, gasPriceWei: bigint) =>
  [
    sellToken,
    buyToken,
    request.side,
    amount,
    request.maxHops,
    request.maxSplits,
    request.venues?.join(",") ?? "*",
    request.excludeVenues?.join(",") ?? "",
    gasPriceWei
  ].join("|")

/** The tokens a plan's paths pass through between their ends: hubs, as paths are built. */
const middleTokens = (plan: Plan): ReadonlySet<Hex> =>
  new Set(plan.legs.flatMap((leg) => leg.path.hops.slice(0, -1).map((hop) => hop.tokenOut)))

/**
 * `found` again without the taxed hubs its best exact-output plan chains through, as often as the new
 * best passes through another (each round leaves out at least one hub, so it ends).
 */
const aroundTaxedHubs = Effect.fnUntraced(function*(sides: Sides, found: Searched) {
  let current = found
  while (current.search.side === "exactOut" && current.result.best !== null) {
    const hubs = new Set(current.search.hubs)
    const through = [...middleTokens(current.result.best)].filter((token) => hubs.has(token))
    const taxed = yield* (yield* TaxedHubs).among(through, sides.view.snapshot)
    if (taxed.size === 0) break
    const search = { ...current.search, hubs: current.search.hubs.filter((hub) => !taxed.has(hub)) }
    current = { search, result: yield* priceRoutes(search, sides.block), avoided: [...current.avoided, ...taxed] }
  }
  return current
})

/** The route request of `sides` and its result: searched, or the same search's on this view. */
const searched = Effect.fnUntraced(function*(sides: Sides, gasPriceWei: bigint) {
  const key = searchKey(sides, gasPriceWei)
  const known = searches.get(sides.view, key)
  if (known !== undefined) return known
  const search = yield* routeRequest(sides, gasPriceWei)
  const found = yield* aroundTaxedHubs(sides, { search, result: yield* priceRoutes(search, sides.block), avoided: [] })
  if (pendingSimulations(found.result).length === 0) searches.set(sides.view, key, found)
  return found
})

export const route = Effect.fn("Quote.route")(function*(sides: Sides) {
  const gasPriceWei = yield* (yield* GasPrice).at(sides.block)
  const { avoided, result: untaxed, search } = yield* searched(sides, gasPriceWei)
  if (untaxed.best === null) return yield* noRoute(sides, untaxed, search.market, avoided)
  const routed: Routed = { ...sides, search, gasPriceWei, untaxed: { ...untaxed, best: untaxed.best } }
  return routed
})

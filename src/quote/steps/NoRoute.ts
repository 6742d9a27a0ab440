/**
 * Why route search found no plan, as the error the caller reads: no path at all, paths that cannot be
 * priced exactly, paths too shallow for the order (a launchpad curve that graduates first named with
 * the room it has left), or an exact output whose paths all chain through taxed hubs (../TaxedHubs.ts).
 */
import { Effect } from "effect"
import type { Hex } from "../../../schema/Chain.js"
import { InsufficientLiquidity, NoRoute } from "../../../schema/Errors.js"
import { usdcBeforeGraduation } from "../../math/LaunchpadCurve.js"
import type { RouteResult } from "../../routing/FindRoute.js"
import type { Market } from "../../routing/Market.js"
import { sideOf } from "../Request.js"
import type { Sides } from "./Sides.js"

/** USDC the pair's curves still take before graduation, for the error that names it. */
const curveRoom = (market: Market, tokens: ReadonlyArray<Hex>): string =>
  tokens.flatMap((token) => {
    const pool = market.pool(token)
    return pool?.kind === "curve" ? [usdcBeforeGraduation(pool.curve).toString()] : []
  }).join(", ")

/** An exact output that only chains through `avoided` could fill: an exact input can. */
const throughTaxedHubs = ({ buy, sell, view }: Sides, avoided: ReadonlyArray<Hex>) => {
  const names = avoided.map((hub) => sideOf(view, hub)?.symbol || hub).join(", ")
  return new NoRoute({
    message: `an exact output of ${buy.symbol} cannot chain through ${names}: ${
      avoided.length === 1 ? "it taxes" : "they tax"
    } transfers, so such a chain delivers short and reverts, and no other path from ${sell.symbol} fills this order`,
    hint: "quote `side: \"exactIn\"` for this pair: an exact input passes through a taxed token, priced with its tax"
  })
}

export const noRoute = (
  sides: Sides,
  result: RouteResult,
  market: Market,
  avoided: ReadonlyArray<Hex>
): Effect.Effect<never, InsufficientLiquidity | NoRoute> => {
  const { buy, buyToken, request, sell, sellToken } = sides
  if (avoided.length > 0) return Effect.fail(throughTaxedHubs(sides, avoided))
  const short = result.candidates.some((c) => c.run._tag === "Unfillable")
  if (result.candidates.length > 0 && short) {
    const curveLeft = result.candidates.some((c) => c.run._tag === "Unfillable" && c.run.reason === "curve_complete")
    return Effect.fail(
      new InsufficientLiquidity({
        message: curveLeft
          ? `the order is larger than what the launchpad curve sells before graduation (curve_complete), and no other path between ${sell.symbol} and ${buy.symbol} fills it`
          : `no path between ${sell.symbol} and ${buy.symbol} has the liquidity for this order`,
        hint: curveLeft
          ? `quote a smaller amount: the curve takes ${
            curveRoom(market, [sellToken, buyToken])
          } USDC (base units) more before it graduates`
          : "quote a smaller amount"
      })
    )
  }
  return Effect.fail(
    new NoRoute({
      message: result.candidates.length === 0
        ? `no pool with liquidity connects ${sell.symbol} and ${buy.symbol} within ${request.maxHops} hop(s)`
        : `the paths between ${sell.symbol} and ${buy.symbol} cannot be priced exactly (hooked or dynamic-fee pools)`,
      ...(result.candidates.length === 0 && request.maxHops < 3 ? { hint: "a larger `maxHops` may find a path" } : {})
    })
  )
}

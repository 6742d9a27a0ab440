/**
 * Why route search found no plan, as the error the caller reads: no path at all, paths that cannot be
 * priced exactly, or paths too shallow for the order (a launchpad curve that graduates first named with
 * the room it has left).
 */
import { Effect } from "effect"
import type { Hex } from "../../../schema/Chain.js"
import { InsufficientLiquidity, NoRoute } from "../../../schema/Errors.js"
import { usdcBeforeGraduation } from "../../math/LaunchpadCurve.js"
import type { RouteResult } from "../../routing/FindRoute.js"
import type { Market } from "../../routing/Market.js"
import type { Sides } from "./Sides.js"

/** USDC the pair's curves still take before graduation, for the error that names it. */
const curveRoom = (market: Market, tokens: ReadonlyArray<Hex>): string =>
  tokens.flatMap((token) => {
    const pool = market.pool(token)
    return pool?.kind === "curve" ? [usdcBeforeGraduation(pool.curve).toString()] : []
  }).join(", ")

export const noRoute = (
  { buy, buyToken, request, sell, sellToken }: Sides,
  result: RouteResult,
  market: Market
): Effect.Effect<never, InsufficientLiquidity | NoRoute> => {
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

/**
 * A quote's first step (../Quote.ts): the request resolved into its two sides by the checks the
 * operation table also runs before payment (../Request.ts), the block the index view stands at, and a
 * USD price for every token the answer can show, the pair's own launchpad curves included.
 */
import { Effect } from "effect"
import { Deployment, usdcOf } from "../../../layers/Deployment.js"
import type { Address, Hex } from "../../../schema/Chain.js"
import type { QuoteRequest } from "../../../schema/QuoteRequest.js"
import { Launchpads } from "../../indexer/Launchpads.js"
import type { CurvePool } from "../../math/Hop.js"
import { usdOf } from "../../pricing/Usd.js"
import { curvePoolsOf, curvePrice } from "../../routing/CurvePools.js"
import type { Plan } from "../../routing/Plan.js"
import type { SearchView } from "../../search/View.js"
import { type ResolvedRequest, resolveQuoteRequest } from "../Request.js"

export interface Sides extends ResolvedRequest {
  readonly request: QuoteRequest
  readonly usdc: Address
  /** The block every figure of the answer is read at: the index view's. */
  readonly block: number
  /** The pair's launchpad curves (a curve trades only against USDC, so no other curve can be on a path). */
  readonly curves: ReadonlyArray<CurvePool>
  /** Micro-dollars per base unit × 1e36 (src/pricing/Usd.ts), when the token has a price. */
  readonly price: (token: Hex) => bigint | undefined
}

export const resolveSides = Effect.fn("Quote.resolveSides")(function*(request: QuoteRequest, view: SearchView) {
  const usdc = usdcOf(yield* Deployment)
  const resolved = yield* resolveQuoteRequest(request, view)
  const { state } = resolved.view.snapshot
  const launchpads = yield* (yield* Launchpads).constants
  const curves = curvePoolsOf(state, launchpads, [resolved.sellToken, resolved.buyToken], usdc)
  const sides: Sides = {
    ...resolved,
    request,
    usdc,
    block: state.block,
    curves,
    price: (token) => resolved.view.valuation.price(token) ?? curvePrice(curves, token)
  }
  return sides
})

/** The order's USD value in micro-dollars: its input's, else its output's, 0 when neither side has a price. */
export const orderUsdOf = (sides: Sides, plan: Pick<Plan, "amountIn" | "amountOut">): bigint => {
  const valueIn = sides.price(sides.sellToken)
  const valueOut = sides.price(sides.buyToken)
  return valueIn !== undefined
    ? usdOf(plan.amountIn, valueIn)
    : valueOut !== undefined
    ? usdOf(plan.amountOut, valueOut)
    : 0n
}

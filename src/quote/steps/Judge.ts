/**
 * A quote's third step: the sell-back verdict on the untaxed plan (src/safety/QuoteVerdict.ts), and,
 * when it measures a transfer tax, the routes priced again with that tax, since it changes every amount.
 */
import { Effect } from "effect"
import type { Hex } from "../../../schema/Chain.js"
import type { SafetyVerdict } from "../../../schema/Token.js"
import { judgedToken, measureSafety, taxesOf } from "../../safety/QuoteVerdict.js"
import { sideOf } from "../Request.js"
import { type PricedRoutes, priceRoutes, type Routed } from "./Route.js"
import { orderUsdOf } from "./Sides.js"

export interface Judged extends Routed {
  readonly safety: typeof SafetyVerdict.Type | null
  /** The routes the answer shows: the taxed ones when the measured tax leaves a plan, else the untaxed. */
  readonly routes: PricedRoutes
}

export const judge = Effect.fn("Quote.judge")(function*(routed: Routed) {
  const { block, search, untaxed, usdc, view } = routed
  const symbolOf = (address: Hex) => (sideOf(view, address)?.symbol ?? address)
  const safety = yield* measureSafety(untaxed.best, usdc, search, orderUsdOf(routed, untaxed.best), block, symbolOf)
  const taxes = taxesOf(safety, judgedToken(untaxed.best, usdc))
  const taxed = taxes === undefined ? undefined : yield* priceRoutes({ ...search, taxes }, block)
  const judged: Judged = {
    ...routed,
    safety,
    routes: taxed === undefined || taxed.best === null ? untaxed : { ...taxed, best: taxed.best }
  }
  return judged
})

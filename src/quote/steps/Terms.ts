/**
 * A quote's fourth step: the plan as offered. Whether the router executes it, its slippage bounds, the
 * order's USD size and the price of its `swap` call, its shape (`best.legs` or `best.graph`), and the
 * context its routes are formatted with.
 */
import { Effect } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { contractOf, Deployment } from "../../../layers/Deployment.js"
import { swapPrice } from "../../../layers/payment/Prices.js"
import { Venues } from "../../../layers/Venues.js"
import type { Address, Hex } from "../../../schema/Chain.js"
import type { Path } from "../../routing/Path.js"
import { planShape } from "../../routing/PlanShape.js"
import { maxAmountInOf, minAmountOutOf, type PresentContext } from "../Present.js"
import { sideOf } from "../Request.js"
import type { Judged } from "./Judge.js"
import { orderUsdOf } from "./Sides.js"

export interface Terms extends Judged {
  /** The router's address, lower-case; none when the deployment has no router. */
  readonly router: Address | undefined
  /** Whether the router executes every path of the best plan. */
  readonly bestExecutable: boolean
  /** exactIn: the quoted output less the slippage; exactOut: the asked amount. */
  readonly minAmountOut: bigint
  /** exactOut: the quoted input plus the slippage; exactIn: the input. */
  readonly maxAmountIn: bigint
  /** The order's USD value in micro-dollars (./Sides.ts). */
  readonly orderUsdMicro: bigint
  /** The price of the `swap` call for this order, USDC base units. */
  readonly swapPrice: bigint
  /** `best.legs` or `best.graph`, as the answer shows the plan. */
  readonly shape: ReturnType<typeof planShape>
  readonly context: PresentContext
}

/** The judged quote with the terms its best plan is offered on. */
export const terms = Effect.fn("Quote.terms")(function*(judged: Judged) {
  const deployment = yield* Deployment
  const venues = yield* Venues
  const config = yield* AppConfig
  const { buy, buyToken, request, sell, sellToken, view } = judged
  const plan = judged.routes.best
  const router = contractOf(deployment, "router")
  const executable = (path: Path) =>
    router !== undefined && path.hops.every((hop) => {
      const venue = venues.byId(hop.venue)
      return venue !== undefined && venue.executable && venue.enabled
    })
  const label = (address: Hex) => {
    const known = address === sellToken ? sell : address === buyToken ? buy : sideOf(view, address)
    return { symbol: known?.symbol ?? "", decimals: known?.decimals ?? 18 }
  }
  const context: PresentContext = {
    usdc: judged.usdc,
    token: label,
    pool: judged.search.market.pool,
    gas: judged.search.gas,
    price: judged.price,
    executable,
    buyTaxBps: judged.safety?.buyTaxBps ?? 0,
    ageBlocks: Math.max(0, view.snapshot.head - judged.block)
  }
  const orderUsdMicro = orderUsdOf(judged, plan)
  const offered: Terms = {
    ...judged,
    router,
    bestExecutable: plan.legs.every((leg) => executable(leg.path)),
    // exactOut: the asked amount is the floor (the plan may deliver a few units more).
    minAmountOut: request.side === "exactOut" ? judged.amount : minAmountOutOf(plan, request.slippageBps),
    maxAmountIn: maxAmountInOf(plan, request.slippageBps),
    orderUsdMicro,
    swapPrice: swapPrice(config.prices, orderUsdMicro),
    shape: planShape(plan, context),
    context
  }
  return offered
})

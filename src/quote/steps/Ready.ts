/**
 * A quote's fifth step: with a taker, whether it can carry the offered trade out at the quote's block
 * (balance, approvals, gas, the `swap` fee; ../Readiness.ts), in one batched round trip.
 */
import { Effect } from "effect"
import { contractOf, Deployment } from "../../../layers/Deployment.js"
import { lowerAddress } from "../../../schema/Chain.js"
import type { Readiness } from "../../../schema/Readiness.js"
import { readReadiness } from "../Readiness.js"
import type { Terms } from "./Terms.js"

export interface Ready extends Terms {
  /** None when the request names no taker. */
  readonly readiness: Readiness | undefined
}

export const checkReady = Effect.fn("Quote.ready")(function*(offered: Terms) {
  const { request } = offered
  if (request.taker === undefined) return { ...offered, readiness: undefined } satisfies Ready
  const permit2 = contractOf(yield* Deployment, "permit2")
  const readiness = yield* readReadiness({
    taker: lowerAddress(request.taker),
    sellToken: offered.sellToken,
    usdc: offered.usdc,
    amountIn: offered.maxAmountIn,
    block: offered.block,
    blockTime: offered.view.snapshot.state.time,
    router: offered.router,
    permit2,
    gasUnits: offered.routes.best.gasUnits,
    gasPriceWei: offered.gasPriceWei,
    swapFee: offered.swapPrice
  })
  return { ...offered, readiness } satisfies Ready
})

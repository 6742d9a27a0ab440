/**
 * The quote's verdict is a fresh wallet's. The taker's own wallet can be treated otherwise: an owner who
 * blacklists it, or "adds a bot" with a confiscatory tax, between the quote and the swap, lets its buy
 * through and keeps what it bought. So a buy's simulation is followed, in the next block, by the taker
 * selling back all it then holds of the token through the route the verdict was measured on (the same
 * calls as the fresh wallet's sell-back). A taker who could buy but not sell back is refused with
 * `cannot_sell`, never handed the buy.
 *
 * Judged only where the taker receives the tokens itself (a separate recipient is the one who would
 * sell, and may be a contract). The loss is compared with the quote's only for a USDC buy, the one
 * whose cost is in USDC; a taker who already held the token sells that too, which can only lower it.
 */
import { Effect } from "effect"
import type { Address } from "viem"
import { AppConfig } from "../../layers/AppConfig.js"
import type { SimResult } from "../../layers/Simulator.js"
import { CannotSell } from "../../schema/Errors.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import { probePlanOf, type RouterVenues } from "../execution/FromRoute.js"
import { Funding, WHOLE_BALANCE } from "../execution/RouterAbi.js"
import type { Market } from "../routing/Market.js"
import { pathOfRouteId } from "../routing/PlanShape.js"
import { bpsOf, reversePath } from "../safety/check/Expected.js"
import { readSell, sellCalls, SIMULATED_DEADLINE } from "../safety/check/RoundTrip.js"

export interface SellBackInput {
  readonly record: QuoteRecord
  readonly market: Market
  readonly taker: Address
  readonly recipient: Address
  readonly router: Address
  readonly venues: RouterVenues
  readonly usdc: string
}

/** What the taker's buy spent and got, as its simulation reports them. */
interface Executed {
  readonly amountIn: bigint
  readonly after: ReadonlyArray<SimResult>
}

/** The sell-back calls for a buy of a judged token, and how to judge what they did; none otherwise. */
export const takerSellBack = (input: SellBackInput) =>
  Effect.gen(function*() {
    const { confiscatoryTaxBps } = (yield* AppConfig).safety
    const { record, taker, router } = input
    const safety = record.safety
    if (safety === null || safety.verdict === "pinned" || input.recipient.toLowerCase() !== taker.toLowerCase()) {
      return undefined
    }
    const path = pathOfRouteId(safety.routeId, input.market.pool)
    if (path === undefined || path.tokenOut.toLowerCase() !== record.buy.toLowerCase()) return undefined
    const plan = probePlanOf(reversePath(path), WHOLE_BALANCE, input.market.pool, input.venues, {
      recipient: taker,
      deadline: SIMULATED_DEADLINE,
      quoteId: record.quoteId,
      funding: Funding.approval
    })
    const calls = sellCalls(router, taker, path.tokenOut, plan)
    const refuse = (why: string) =>
      new CannotSell({
        message: `the taker ${taker} can buy ${record.buy} but ${why}`,
        hint: "the token treats this wallet differently from a fresh one; do not buy it from this wallet"
      })

    const judge = (executed: Executed) =>
      Effect.gen(function*() {
        const sold = readSell(router, taker, executed.after)
        if (sold._tag === "SellFailed") return yield* refuse(`its sell-back right after reverts: ${sold.reason}`)
        if (record.sell.toLowerCase() !== input.usdc.toLowerCase() || safety.roundTripLossBps === null) return
        const spent = executed.amountIn
        const loss = bpsOf(spent - (sold.usdcOut < spent ? sold.usdcOut : spent), spent)
        if (loss - safety.roundTripLossBps >= confiscatoryTaxBps) {
          return yield* refuse(
            `selling it back right after returns ${sold.usdcOut} USDC base units of ${spent} (a ${loss} bps round ` +
              `trip, against ${safety.roundTripLossBps} bps for a fresh wallet at the quote)`
          )
        }
      })

    return { calls, judge }
  })

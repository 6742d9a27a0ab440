/**
 * The quote's sell-back verdict measured again at the block `swap` and `swap/tx` build on, on the
 * route it was measured on and at the same size: a token whose owner raised a tax, threw a switch or
 * armed a window since the quote is not handed to the taker on the quote's word. Every build does it:
 * a verdict is cached per block, so this costs one simulation request per token per block, sent together
 * with the build's read of the taker's wallet (docs/safety.md says what it costs).
 *
 * Worse is: a verdict further down the ladder (ok / pinned, taxed, size_limited, illiquid /
 * inconclusive, cannot_sell), a buy or sell tax higher by more than rounding, or, where a pool on the
 * route cannot be priced exactly and so no tax was measured, a round trip that loses more than it did by
 * more than depth changes explain. A node that did not answer says nothing: the build goes on and its
 * own simulation stands.
 */
import { Effect } from "effect"
import { QuoteStale } from "../../schema/Errors.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import type { SafetyVerdict } from "../../schema/Token.js"
import type { Market } from "../routing/Market.js"
import { pathOfRouteId } from "../routing/PlanShape.js"
import { SafetyCheck, SIMULATION_UNAVAILABLE } from "../safety/check/SafetyCheck.js"
import { PROBE_USDC } from "../safety/QuoteVerdict.js"

const RANK: Record<SafetyVerdict["verdict"], number> = {
  ok: 0,
  pinned: 0,
  taxed: 1,
  size_limited: 2,
  illiquid: 3,
  inconclusive: 3,
  cannot_sell: 4
}

/** Tax differences up to this are rounding of one measurement against another. */
const TAX_TOLERANCE_BPS = 10
/** A round trip's loss also moves with the pools' depth (its price impact, twice): up to this, it is not the token's doing. */
const ROUND_TRIP_TOLERANCE_BPS = 100

const rose = (a: number | null, b: number | null, tolerance: number) => b !== null && b - (a ?? 0) > tolerance

export const worsened = (before: SafetyVerdict, now: SafetyVerdict): boolean => {
  if (RANK[now.verdict] > RANK[before.verdict]) return true
  const untaxed = [before.buyTaxBps, before.sellTaxBps, now.buyTaxBps, now.sellTaxBps].includes(null)
  return rose(before.buyTaxBps, now.buyTaxBps, TAX_TOLERANCE_BPS) ||
    rose(before.sellTaxBps, now.sellTaxBps, TAX_TOLERANCE_BPS) ||
    (untaxed && rose(before.roundTripLossBps, now.roundTripLossBps, ROUND_TRIP_TOLERANCE_BPS))
}

/** Fails `quote_stale` when the quote's verdict got worse at `block`. */
export const rejudge = Effect.fn("Swap.rejudge")(function*(record: QuoteRecord, market: Market, block: number) {
  const before = record.safety
  if (before === null || before.verdict === "pinned" || before.verdict === "inconclusive") return
  const path = pathOfRouteId(before.routeId, market.pool)
  if (path === undefined) return
  const now = yield* (yield* SafetyCheck).check({
    token: path.tokenOut,
    path,
    amountInUsdc: record.orderUsdMicro > 0n ? record.orderUsdMicro : PROBE_USDC,
    block: BigInt(block),
    pools: market.pool
  })
  if (now.reason?.startsWith(SIMULATION_UNAVAILABLE) === true || !worsened(before, now)) return
  return yield* new QuoteStale({
    message:
      `the token's sell-back verdict at block ${block} is \`${now.verdict}\`, worse than the quote's \`${before.verdict}\` at block ${before.scope.block}${
        now.reason === undefined ? "" : `: ${now.reason}`
      }`,
    hint: "the token changed since the quote; review the replacement quote's verdict"
  })
})

/**
 * The quote's sell-back verdict: which token is judged, on which USDC→token path and at what size,
 * asked of `SafetyCheck` (src/safety/check/) at the quote's block.
 *
 * - The judged token is the side that is not USDC; with neither side USDC, the buy token (what the
 *   taker ends up holding).
 * - The path is the plan's own when it runs from USDC to the token (its largest leg), the plan's
 *   reversed when it runs from the token to USDC, and otherwise the best single USDC→token path.
 * - The size is the order's USD value in USDC base units, or a 100 USDC probe when it has no price.
 *
 * Measuring is a read: the quote's `record` step gives the verdict to the `VerdictBook` (so a token
 * quoted once shows it in `search`) with the stored quote, so a quote that fails after its verdict
 * leaves nothing in the book.
 */
import { Effect } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { SafetyVerdict as Verdict } from "../../schema/Token.js"
import type { RouteRequest } from "../routing/FindRoute.js"
import { findRoute } from "../routing/FindRoute.js"
import type { Path, TransferTaxes } from "../routing/Path.js"
import type { Plan } from "../routing/Plan.js"
import { reversePath } from "./check/Expected.js"
import { SafetyCheck } from "./check/SafetyCheck.js"

type SafetyVerdict = typeof Verdict.Type

/** The size a trade without a USD value is judged at: $100. */
export const PROBE_USDC = 100_000_000n

export const judgedToken = (
  plan: Pick<Plan, "tokenIn" | "tokenOut">,
  usdc: Hex
): Hex => (plan.tokenOut === usdc ? plan.tokenIn : plan.tokenOut)

const largestLeg = (plan: Plan): Path => plan.legs.reduce((a, b) => (b.amountIn > a.amountIn ? b : a)).path

/** The USDC→token path the verdict is measured on, or none when USDC does not reach the token. */
const checkedPath = (plan: Plan, usdc: Hex, token: Hex, search: RouteRequest, size: bigint): Path | undefined => {
  if (plan.tokenIn === usdc && plan.tokenOut === token) return largestLeg(plan)
  if (plan.tokenIn === token && plan.tokenOut === usdc) return reversePath(largestLeg(plan))
  const alone = findRoute({ ...search, tokenIn: usdc, tokenOut: token, side: "exactIn", amount: size, maxSplits: 1 })
  return alone.bestSingle?.legs[0]?.path
}

// Untraced: it runs inside the quote's judge step's span; a measurement opens SafetyCheck's own.
export const measureSafety = Effect.fnUntraced(function*(
  plan: Plan,
  usdc: Hex,
  search: RouteRequest,
  orderUsdMicro: bigint,
  block: number,
  symbolOf: (address: Hex) => string
) {
  const token = judgedToken(plan, usdc)
  const size = orderUsdMicro > 0n ? orderUsdMicro : PROBE_USDC
  const path = checkedPath(plan, usdc, token, search, size)
  if (path === undefined) return null
  const check = yield* SafetyCheck
  return yield* check.check({
    token,
    path,
    amountInUsdc: size,
    block: BigInt(block),
    pools: search.market.pool,
    symbolOf
  })
})

/** The judged token's measured transfer taxes, for routing; none when untaxed or not measured. */
export const taxesOf = (verdict: SafetyVerdict | null, token: Hex): TransferTaxes | undefined => {
  const buy = Math.round(verdict?.buyTaxBps ?? 0)
  const sell = Math.round(verdict?.sellTaxBps ?? 0)
  if (buy <= 0 && sell <= 0) return undefined
  return {
    buyBps: (address) => (address === token ? BigInt(Math.max(0, buy)) : 0n),
    sellBps: (address) => (address === token ? BigInt(Math.max(0, sell)) : 0n)
  }
}

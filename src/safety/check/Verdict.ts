/**
 * The verdict rules, in one pure function over what the round trip measured, so each rule reads as the
 * docs/safety.md states it. Order matters: a sell that fails outweighs everything; then what the wallet
 * gets back: taxes where every hop is priced exactly, else the round trip's USDC in against USDC out
 * beyond the pools' own fees, each confiscatory at the same threshold; a balance the pools cannot account
 * for (more than they sent, a whole-balance sell that leaves tokens behind) is never called safe;
 * liquidity, caps and taxes follow, each with the figures that justify it.
 *
 * The token's own figures (balanceOf, its Transfer events) only split a loss between buy and sell: what
 * decides is USDC, measured at the wallet, and the pools' exact math. So a reflection token, whose balances
 * move without a Transfer per unit, is judged by what its holder gets back, like any other.
 */
import type { SafetyVerdict } from "../../../schema/Token.js"
import type { HorizonOutcome } from "./Horizons.js"
import type { BuyOutcome, SellOutcome } from "./RoundTrip.js"

export interface Thresholds {
  readonly illiquidImpactBps: number
  readonly confiscatoryTaxBps: number
}

export interface Measurement {
  readonly buy: BuyOutcome
  readonly sell: SellOutcome | null
  /** The same round trip from other fresh wallets that held longer (./Horizons.ts). */
  readonly later: ReadonlyArray<HorizonOutcome>
  readonly amountIn: bigint
  readonly buyTaxBps: number | undefined
  readonly sellTaxBps: number | undefined
  readonly buyImpactBps: number | undefined
  /** The buy path's untaxed output, where every hop can be priced exactly. */
  readonly expectedBuyOut: bigint | undefined
  /** What the pools' own fees take from a round trip, in bps (./Expected.ts `poolFeesBps`). */
  readonly poolFeesBps: number
  /** Impact of a buy of max(order, reference size), for the depth rule. */
  readonly depthImpactBps: number | undefined
  /** The largest buy that went through, when a per-transaction cap was found (USDC, decimal). */
  readonly maxBuyUsdc: string | undefined
}

type Base = Pick<SafetyVerdict, "routeId" | "route" | "scope">

export const inconclusive = (base: Base, reason: string): SafetyVerdict => ({
  ...base,
  verdict: "inconclusive",
  canSell: false,
  buyTaxBps: null,
  sellTaxBps: null,
  buyImpactBps: null,
  roundTripLossBps: null,
  reason
})

const lossBps = (amountIn: bigint, back: bigint) =>
  amountIn <= 0n ? 0 : Number(((amountIn - (back < amountIn ? back : amountIn)) * 10_000n) / amountIn)

/**
 * The first horizon at which holders are locked: the sell reverts, or returns a confiscatory share
 * less than the next block's sell did. A horizon whose buy failed says nothing about selling.
 */
const lockedLater = (m: Measurement, nextBlockLoss: number, confiscatoryBps: number) => {
  for (const { horizon, bought, sold } of m.later) {
    if (bought._tag !== "Bought" || bought.received <= 0n || sold === null) continue
    if (sold._tag === "SellFailed") return `sells revert ${horizon.label} after the buy: ${sold.reason}`
    const loss = lossBps(m.amountIn, sold.usdcOut)
    if (sold.usdcOut === 0n || loss - nextBlockLoss >= confiscatoryBps) {
      return `a sell ${horizon.label} after the buy returns ${sold.usdcOut} USDC base units of ${m.amountIn} ` +
        `(a ${loss} bps round-trip loss, ${nextBlockLoss} bps in the next block)`
    }
  }
  return undefined
}

/** A round trip's loss beyond the pools' own fees this small is rounding of the fee estimate, not a tax. */
const UNPRICED_TOLERANCE_BPS = 10

/**
 * The loss the taxes stand for: the worse measured tax where every hop is priced exactly; otherwise what
 * the round trip lost beyond the pools' own fees, since no tax could be told from the hop's price.
 */
const taxLoss = (m: Measurement, roundTripLossBps: number) => {
  if (m.buyTaxBps !== undefined && m.sellTaxBps !== undefined) {
    return { bps: Math.max(m.buyTaxBps, m.sellTaxBps), measured: "tax" as const }
  }
  const beyondFees = Math.floor(roundTripLossBps - m.poolFeesBps)
  return { bps: beyondFees > UNPRICED_TOLERANCE_BPS ? beyondFees : 0, measured: "round_trip" as const }
}

/** Why the token's balances cannot be accounted for by what the pools moved, if they cannot. */
const unaccounted = (
  m: Measurement,
  buy: Extract<BuyOutcome, { _tag: "Bought" }>,
  sell: Extract<SellOutcome, { _tag: "Sold" }>
) => {
  const { received } = buy
  if (m.expectedBuyOut !== undefined && received * 10_000n > m.expectedBuyOut * 10_001n) {
    return `the wallet's balance rose by ${received} on the buy, more than the ${m.expectedBuyOut} the pools sent`
  }
  if (sell.sent < sell.balance) {
    return `a sell of the whole balance (${sell.balance}) moved only ${sell.sent} out of the wallet`
  }
  if (m.expectedBuyOut === undefined && (!buy.witnessed || !sell.witnessed)) {
    return `no Transfer event shows what balanceOf says moved (${received} in, ${sell.sent} out), and the pools ` +
      `cannot be priced exactly to account for it`
  }
  return undefined
}

export const decide = (base: Base, m: Measurement, thresholds: Thresholds): SafetyVerdict => {
  if (m.buy._tag === "BuyFailed") return inconclusive(base, `the buy reverted: ${m.buy.reason}`)
  if (m.buy.received <= 0n) return inconclusive(base, "the buy delivered no tokens to the wallet")
  const figures = {
    buyTaxBps: m.buyTaxBps ?? null,
    sellTaxBps: m.sellTaxBps ?? null,
    buyImpactBps: m.buyImpactBps ?? null,
    ...(m.maxBuyUsdc === undefined ? {} : { maxBuyUsdc: m.maxBuyUsdc })
  }
  const sell = m.sell
  if (sell === null || sell._tag === "SellFailed") {
    return {
      ...base,
      ...figures,
      verdict: "cannot_sell",
      canSell: false,
      sellTaxBps: null,
      roundTripLossBps: 10_000,
      reason: `the sell-back reverted: ${sell?.reason ?? "not run"}`
    }
  }
  const roundTripLossBps = lossBps(m.amountIn, sell.usdcOut)
  const measured = { ...base, ...figures, roundTripLossBps }
  const loss = taxLoss(m, roundTripLossBps)
  if (sell.usdcOut === 0n || loss.bps >= thresholds.confiscatoryTaxBps) {
    return {
      ...measured,
      verdict: "cannot_sell",
      canSell: false,
      reason: loss.measured === "tax"
        ? `the sell-back returned ${sell.usdcOut} USDC base units: a confiscatory tax (${loss.bps} bps)`
        : `the sell-back returned ${sell.usdcOut} USDC base units of ${m.amountIn}: a ${loss.bps} bps loss beyond ` +
          `the pools' own fees (a pool on the route cannot be priced exactly, so the round trip decides)`
    }
  }
  const locked = lockedLater(m, roundTripLossBps, thresholds.confiscatoryTaxBps)
  if (locked !== undefined) return { ...measured, verdict: "cannot_sell", canSell: false, reason: locked }
  const unexplained = unaccounted(m, m.buy, sell)
  if (unexplained !== undefined) return { ...measured, verdict: "inconclusive", canSell: true, reason: unexplained }
  if (m.depthImpactBps !== undefined && m.depthImpactBps > thresholds.illiquidImpactBps) {
    return {
      ...measured,
      verdict: "illiquid",
      canSell: true,
      reason:
        `a buy of the reference size moves the price ${m.depthImpactBps} bps (limit ${thresholds.illiquidImpactBps})`
    }
  }
  if (m.maxBuyUsdc !== undefined) return { ...measured, verdict: "size_limited", canSell: true }
  if (loss.bps > 0) {
    return loss.measured === "tax" ? { ...measured, verdict: "taxed", canSell: true } : {
      ...measured,
      verdict: "taxed",
      canSell: true,
      reason: `the round trip lost ${loss.bps} bps beyond the pools' own fees; a pool on the route cannot be priced ` +
        `exactly, so the loss cannot be split into buy and sell taxes`
    }
  }
  return { ...measured, verdict: "ok", canSell: true }
}

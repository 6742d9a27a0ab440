/**
 * The verdict rules, in one pure function over what the round trip measured, so each rule reads as the
 * docs/safety.md states it. Order matters: a sell that fails outweighs everything; a measurement the token
 * could have faked (a balance that disagrees with its transfers) is never called safe; liquidity,
 * caps and taxes follow, each with the figures that justify it.
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
  const worstTax = Math.max(figures.buyTaxBps ?? 0, figures.sellTaxBps ?? 0)
  if (sell.usdcOut === 0n || worstTax >= thresholds.confiscatoryTaxBps) {
    return {
      ...measured,
      verdict: "cannot_sell",
      canSell: false,
      reason: `the sell-back returned ${sell.usdcOut} USDC base units: a confiscatory tax (${worstTax} bps)`
    }
  }
  const locked = lockedLater(m, roundTripLossBps, thresholds.confiscatoryTaxBps)
  if (locked !== undefined) return { ...measured, verdict: "cannot_sell", canSell: false, reason: locked }
  if (!m.buy.witnessed || !sell.witnessed) {
    return {
      ...measured,
      verdict: "inconclusive",
      canSell: true,
      reason: `no Transfer event shows what balanceOf says moved: ${m.buy.received} in, ${sell.sent} out`
    }
  }
  if (sell.balance !== m.buy.received || sell.sent !== m.buy.received) {
    return {
      ...measured,
      verdict: "inconclusive",
      canSell: true,
      reason:
        `the wallet held ${sell.balance} when it sold and the sell moved ${sell.sent}, but the buy delivered ${m.buy.received}`
    }
  }
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
  if (worstTax > 0) return { ...measured, verdict: "taxed", canSell: true }
  return { ...measured, verdict: "ok", canSell: true }
}

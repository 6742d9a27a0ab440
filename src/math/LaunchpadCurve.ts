/**
 * The launchpad's bonding curve (`contracts/launchpad/Launchpad.sol`): a constant product against a
 * virtual USDC reserve, no fee, rounding down as the contract's integer division does. exactOut answers
 * are the smallest input whose exactIn output reaches the amount, so they hold under the same rounding.
 */
import { divRoundingUp } from "./FullMath.js"

export interface CurveState {
  /** USDC reserve the price is computed from, the virtual USDC included. */
  readonly usdcReserve: bigint
  readonly tokenReserve: bigint
  readonly virtualUsdc: bigint
  /** Raised USDC at which the curve stops trading and waits for `graduate`. */
  readonly graduationUsdc: bigint
}

/** What the launchpad fixed at deployment; the same for every token it launches. */
export interface LaunchpadConstants {
  readonly virtualUsdc: bigint
  readonly graduationUsdc: bigint
  readonly curveSupply: bigint
}

/** The contract refuses any trade once the raised USDC has reached the threshold. */
export const curveTradable = (curve: CurveState): boolean =>
  curve.usdcReserve - curve.virtualUsdc < curve.graduationUsdc

/**
 * USDC the curve still takes before it reaches graduation. The contract accepts one last buy that
 * overshoots, but the service quotes no buy past this point: the order is larger than the curve.
 */
export const usdcBeforeGraduation = (curve: CurveState): bigint =>
  curve.graduationUsdc - (curve.usdcReserve - curve.virtualUsdc)

/** Tokens out for `usdcIn` (`buy`). */
export const buyExactIn = (curve: CurveState, usdcIn: bigint): bigint =>
  usdcIn <= 0n ? 0n : (curve.tokenReserve * usdcIn) / (curve.usdcReserve + usdcIn)

/** USDC out for `tokensIn` (`sell`). */
export const sellExactIn = (curve: CurveState, tokensIn: bigint): bigint =>
  tokensIn <= 0n ? 0n : (curve.usdcReserve * tokensIn) / (curve.tokenReserve + tokensIn)

/**
 * Smallest input x with floor(reserveOut·x / (reserveIn + x)) >= out, i.e. x·(reserveOut − out) >=
 * out·reserveIn; `undefined` when the curve cannot pay that much.
 */
const smallestInput = (reserveIn: bigint, reserveOut: bigint, out: bigint): bigint | undefined => {
  if (out <= 0n || out >= reserveOut) return undefined
  return divRoundingUp(out * reserveIn, reserveOut - out)
}

export const buyExactOut = (curve: CurveState, tokensOut: bigint): bigint | undefined =>
  smallestInput(curve.usdcReserve, curve.tokenReserve, tokensOut)

export const sellExactOut = (curve: CurveState, usdcOut: bigint): bigint | undefined =>
  smallestInput(curve.tokenReserve, curve.usdcReserve, usdcOut)

export const afterBuy = (curve: CurveState, usdcIn: bigint, tokensOut: bigint): CurveState => ({
  ...curve,
  usdcReserve: curve.usdcReserve + usdcIn,
  tokenReserve: curve.tokenReserve - tokensOut
})

export const afterSell = (curve: CurveState, tokensIn: bigint, usdcOut: bigint): CurveState => ({
  ...curve,
  usdcReserve: curve.usdcReserve - usdcOut,
  tokenReserve: curve.tokenReserve + tokensIn
})

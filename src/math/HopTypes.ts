/**
 * The shapes one pool swap is priced in (./Hop.ts prices it, ./PoolSwap.ts runs each venue's own math):
 * the pools a route can cross, and a hop's answer.
 */
import type { Hex } from "../../schema/Chain.js"
import type * as Curve from "./LaunchpadCurve.js"
import type { Pool } from "./PoolState.js"

/** A launchpad token still on its bonding curve, traded against USDC through the launchpad. */
export interface CurvePool {
  readonly kind: "curve"
  /** The launched token's address: one curve per token. */
  readonly id: Hex
  /** The launchpad's venue id. */
  readonly venue: string
  readonly token0: Hex
  readonly token1: Hex
  readonly usdc: Hex
  readonly token: Hex
  readonly curve: Curve.CurveState
}

export type RoutablePool = Pool | CurvePool
export type HopKind = RoutablePool["kind"]

export type SimulationReason = "dynamic_fee" | "hook_delta" | "fee_on_transfer_input"
export type UnfillableReason = "insufficient_liquidity" | "curve_complete" | "fee_on_transfer_input" | "zero_amount"

export type HopQuote =
  | {
    readonly _tag: "Quoted"
    /** What the sender sends (before any transfer tax). */
    readonly amountIn: bigint
    /** What the recipient receives (after any transfer tax). */
    readonly amountOut: bigint
    readonly poolAfter: RoutablePool
  }
  | { readonly _tag: "NeedsSimulation"; readonly reason: SimulationReason }
  | { readonly _tag: "Unfillable"; readonly reason: UnfillableReason }

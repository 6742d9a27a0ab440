/**
 * The shapes a path is priced in (./Path.ts runs it forward, ./ExactOut.ts backwards): its hops, the
 * fills of a run, the taxes and simulated prices it uses, and what a run answers.
 */
import type { Hex } from "../../schema/Chain.js"
import type { HopKind, RoutablePool, SimulationReason, UnfillableReason } from "../math/Hop.js"

export interface PathHop {
  readonly poolId: Hex
  readonly venue: string
  readonly kind: HopKind
  readonly tokenIn: Hex
  readonly tokenOut: Hex
}

export interface Path {
  /** `<venue>:<poolId>` per hop joined by `>`: unique per path, the tail of the spec's `routeId`. */
  readonly key: string
  readonly tokenIn: Hex
  readonly tokenOut: Hex
  readonly hops: ReadonlyArray<PathHop>
}

export type Side = "exactIn" | "exactOut"

/** Per-token transfer taxes in bps, from the safety measurement; absent tokens are untaxed. */
export interface TransferTaxes {
  readonly buyBps: (token: Hex) => bigint
  readonly sellBps: (token: Hex) => bigint
}

export interface HopFill {
  readonly hop: PathHop
  readonly amountIn: bigint
  readonly amountOut: bigint
  /** Priced by simulating the swap (a hook decides its fee or amounts), not from indexed state. */
  readonly simulated?: true
}

/**
 * Hop prices learned by simulation, for pools whose swap indexed state cannot price (`NeedsSimulation`):
 * an exact-in output or an exact-out input for one pool, direction and amount, at the quote's block.
 */
export interface SimulatedHops {
  readonly get: (poolId: Hex, tokenIn: Hex, side: Side, amount: bigint) => bigint | undefined
}

/** What a path still needs simulated: the hop, and the amount it is asked for on `side`. */
export interface HopSimulation {
  readonly hop: PathHop
  readonly side: Side
  readonly amount: bigint
}

export type PathRun =
  | {
    readonly _tag: "Filled"
    readonly amountIn: bigint
    readonly amountOut: bigint
    readonly fills: ReadonlyArray<HopFill>
    /** The pools this path touched, as it left them. */
    readonly poolsAfter: ReadonlyArray<RoutablePool>
  }
  | {
    readonly _tag: "NeedsSimulation"
    readonly hop: PathHop
    readonly reason: SimulationReason
    /** The swap to simulate before the path can be priced further. */
    readonly pending: HopSimulation
  }
  | { readonly _tag: "Unfillable"; readonly hop: PathHop | null; readonly reason: UnfillableReason | "unknown_pool" }

export type PoolLookup = (id: Hex) => RoutablePool | undefined

/** What a path's hops are priced from: the pools' state, transfer taxes, and the hops priced by simulation. */
export interface HopPricing {
  readonly pools: PoolLookup
  readonly taxes: TransferTaxes
  readonly simulated: SimulatedHops
}

/**
 * A path: a chain of pool hops from the sell token to the buy token, and its exact price against a
 * given pool state. exactIn runs forward; exactOut finds each hop's least input backwards from the
 * output, then runs that input forward, so the amounts and the pool states are what execution yields.
 *
 * Transfer taxes are charged where tokens move: into the first pool (the sell token's sell tax), out of
 * every pool (the hop output's buy tax) and, because the router holds tokens between hops, into every
 * later pool again (that token's sell tax).
 */
import type { Hex } from "../../schema/Chain.js"
import {
  type HopKind,
  leastHopInput,
  quoteHop,
  type RoutablePool,
  type SimulationReason,
  type UnfillableReason
} from "../math/Hop.js"

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

export const makePath = (hops: ReadonlyArray<PathHop>): Path => ({
  key: hops.map((hop) => `${hop.venue}:${hop.poolId}`).join(">"),
  tokenIn: hops[0]!.tokenIn,
  tokenOut: hops[hops.length - 1]!.tokenOut,
  hops
})

export type Side = "exactIn" | "exactOut"

/** Per-token transfer taxes in bps, from the safety measurement; absent tokens are untaxed. */
export interface TransferTaxes {
  readonly buyBps: (token: Hex) => bigint
  readonly sellBps: (token: Hex) => bigint
}

export const noTaxes: TransferTaxes = { buyBps: () => 0n, sellBps: () => 0n }

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

export const noSimulatedHops: SimulatedHops = { get: () => undefined }

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

const forward = (
  path: Path,
  amountIn: bigint,
  pools: PoolLookup,
  taxes: TransferTaxes,
  simulated: SimulatedHops
): PathRun => {
  let amount = amountIn
  const fills: Array<HopFill> = []
  const poolsAfter: Array<RoutablePool> = []
  for (const hop of path.hops) {
    const pool = pools(hop.poolId)
    if (pool === undefined) return { _tag: "Unfillable", hop, reason: "unknown_pool" }
    const quote = quoteHop({
      pool,
      tokenIn: hop.tokenIn,
      side: "exactIn",
      amount,
      inputTaxBps: taxes.sellBps(hop.tokenIn),
      outputTaxBps: taxes.buyBps(hop.tokenOut)
    })
    if (quote._tag === "NeedsSimulation") {
      const out = simulable(quote.reason) ? simulated.get(hop.poolId, hop.tokenIn, "exactIn", amount) : undefined
      if (out === undefined) {
        return { _tag: "NeedsSimulation", hop, reason: quote.reason, pending: { hop, side: "exactIn", amount } }
      }
      if (out === 0n) return { _tag: "Unfillable", hop, reason: "insufficient_liquidity" }
      // The pool's state after a hooked swap is not known: a plan never sends two flows through it.
      fills.push({ hop, amountIn: amount, amountOut: out, simulated: true })
      poolsAfter.push(pool)
      amount = out
      continue
    }
    if (quote._tag === "Unfillable") return { _tag: "Unfillable", hop, reason: quote.reason }
    fills.push({ hop, amountIn: amount, amountOut: quote.amountOut })
    poolsAfter.push(quote.poolAfter)
    amount = quote.amountOut
  }
  return { _tag: "Filled", amountIn, amountOut: amount, fills, poolsAfter }
}

/** The least input that delivers `amountOut`, hop by hop from the end. */
const leastInput = (
  path: Path,
  amountOut: bigint,
  pools: PoolLookup,
  taxes: TransferTaxes,
  simulated: SimulatedHops
): PathRun | { readonly input: bigint; readonly fills: ReadonlyArray<HopFill> | undefined } => {
  let amount = amountOut
  // Each hop's (input, output) on the way back; kept only when a hop was simulated (see runPath).
  const backward: Array<HopFill> = []
  let anySimulated = false
  for (let i = path.hops.length - 1; i >= 0; i--) {
    const hop = path.hops[i]!
    const pool = pools(hop.poolId)
    if (pool === undefined) return { _tag: "Unfillable", hop, reason: "unknown_pool" }
    const input = leastHopInput({
      pool,
      tokenIn: hop.tokenIn,
      side: "exactOut",
      amount,
      inputTaxBps: taxes.sellBps(hop.tokenIn),
      outputTaxBps: taxes.buyBps(hop.tokenOut)
    })
    if (typeof input === "bigint") {
      backward.unshift({ hop, amountIn: input, amountOut: amount })
      amount = input
    } else if (input._tag === "NeedsSimulation") {
      const needed = simulable(input.reason) ? simulated.get(hop.poolId, hop.tokenIn, "exactOut", amount) : undefined
      if (needed === undefined) {
        return { _tag: "NeedsSimulation", hop, reason: input.reason, pending: { hop, side: "exactOut", amount } }
      }
      if (needed === 0n) return { _tag: "Unfillable", hop, reason: "insufficient_liquidity" }
      backward.unshift({ hop, amountIn: needed, amountOut: amount, simulated: true })
      anySimulated = true
      amount = needed
    } else if (input._tag === "Unfillable") return { _tag: "Unfillable", hop, reason: input.reason }
  }
  return { input: amount, fills: anySimulated ? backward : undefined }
}

/** A taxed input into the PoolManager depends on the router, not the pool: simulating the pool alone cannot tell. */
const simulable = (reason: SimulationReason) => reason !== "fee_on_transfer_input"

/** `simulated` prices the hops indexed state cannot; without it such a path answers `NeedsSimulation`. */
export const runPath = (
  path: Path,
  side: Side,
  amount: bigint,
  pools: PoolLookup,
  taxes: TransferTaxes,
  simulated: SimulatedHops = noSimulatedHops
): PathRun => {
  if (amount <= 0n) return { _tag: "Unfillable", hop: null, reason: "zero_amount" }
  if (side === "exactIn") return forward(path, amount, pools, taxes, simulated)
  const least = leastInput(path, amount, pools, taxes, simulated)
  if ("_tag" in least) return least
  if (least.fills === undefined) return forward(path, least.input, pools, taxes, simulated)
  // A hook that takes its cut on the unspecified side makes exact-in and exact-out swaps of one pool
  // disagree, so the exact-output amounts found on the way back are what the router asks for.
  return { _tag: "Filled", amountIn: least.input, amountOut: amount, fills: least.fills, poolsAfter: [] }
}

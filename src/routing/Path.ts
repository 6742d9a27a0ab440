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
  | { readonly _tag: "NeedsSimulation"; readonly hop: PathHop; readonly reason: SimulationReason }
  | { readonly _tag: "Unfillable"; readonly hop: PathHop | null; readonly reason: UnfillableReason | "unknown_pool" }

export type PoolLookup = (id: Hex) => RoutablePool | undefined

const forward = (path: Path, amountIn: bigint, pools: PoolLookup, taxes: TransferTaxes): PathRun => {
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
    if (quote._tag === "NeedsSimulation") return { _tag: "NeedsSimulation", hop, reason: quote.reason }
    if (quote._tag === "Unfillable") return { _tag: "Unfillable", hop, reason: quote.reason }
    fills.push({ hop, amountIn: amount, amountOut: quote.amountOut })
    poolsAfter.push(quote.poolAfter)
    amount = quote.amountOut
  }
  return { _tag: "Filled", amountIn, amountOut: amount, fills, poolsAfter }
}

/** The least input that delivers `amountOut`, hop by hop from the end. */
const leastInput = (path: Path, amountOut: bigint, pools: PoolLookup, taxes: TransferTaxes): PathRun | bigint => {
  let amount = amountOut
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
    if (typeof input === "bigint") amount = input
    else if (input._tag === "NeedsSimulation") return { _tag: "NeedsSimulation", hop, reason: input.reason }
    else if (input._tag === "Unfillable") return { _tag: "Unfillable", hop, reason: input.reason }
  }
  return amount
}

export const runPath = (path: Path, side: Side, amount: bigint, pools: PoolLookup, taxes: TransferTaxes): PathRun => {
  if (amount <= 0n) return { _tag: "Unfillable", hop: null, reason: "zero_amount" }
  if (side === "exactIn") return forward(path, amount, pools, taxes)
  const input = leastInput(path, amount, pools, taxes)
  return typeof input === "bigint" ? forward(path, input, pools, taxes) : input
}

/**
 * A plan: one order spread over paths, as executed. Paths run one after another against the same pool
 * state, so two paths through one pool see their combined flow: the second prices against what the
 * first left. Its edges (pool, token in, token out, amounts) in execution order are the flow graph a
 * router executes; `best.legs` and `best.graph` are both read from them.
 */
import type { Hex } from "../../schema/Chain.js"
import type { RoutablePool } from "../math/Hop.js"
import type { Market } from "./Market.js"
import { type HopFill, type Path, type PathRun, runPath, type Side, type TransferTaxes } from "./Path.js"

export interface PlanLegFill {
  readonly path: Path
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly fills: ReadonlyArray<HopFill>
}

export interface Plan {
  readonly side: Side
  readonly tokenIn: Hex
  readonly tokenOut: Hex
  readonly amountIn: bigint
  readonly amountOut: bigint
  /** Non-empty; in execution order. */
  readonly legs: ReadonlyArray<PlanLegFill>
  readonly gasUnits: bigint
  readonly gasUsdcRaw: bigint
  /** Gas in the objective's token (output for exactIn, input for exactOut); 0 when it has no price. */
  readonly gasInToken: bigint
}

export type Failure = Exclude<PathRun, { readonly _tag: "Filled" }>

export type Execution =
  | {
    readonly _tag: "Filled"
    readonly legs: ReadonlyArray<PlanLegFill>
    readonly amountIn: bigint
    readonly amountOut: bigint
  }
  | Failure

/** Pool lookups that see earlier legs' effects first, then the market. */
export const overlay = (market: Market) => {
  const changed = new Map<Hex, RoutablePool>()
  return {
    lookup: (id: Hex) => changed.get(id) ?? market.pool(id),
    apply: (pools: ReadonlyArray<RoutablePool>) => {
      for (const pool of pools) changed.set(pool.id, pool)
    }
  }
}

/** Runs each path with its amount (input for exactIn, output for exactOut), in order, on one pool state. */
export const execute = (
  market: Market,
  paths: ReadonlyArray<Path>,
  amounts: ReadonlyArray<bigint>,
  side: Side,
  taxes: TransferTaxes
): Execution => {
  const pools = overlay(market)
  const legs: Array<PlanLegFill> = []
  let amountIn = 0n
  let amountOut = 0n
  for (const [i, path] of paths.entries()) {
    const amount = amounts[i]!
    if (amount === 0n) continue
    const run = runPath(path, side, amount, pools.lookup, taxes)
    if (run._tag !== "Filled") return run
    pools.apply(run.poolsAfter)
    legs.push({ path, amountIn: run.amountIn, amountOut: run.amountOut, fills: run.fills })
    amountIn += run.amountIn
    amountOut += run.amountOut
  }
  return { _tag: "Filled", legs, amountIn, amountOut }
}

export interface PlanEdgeFill extends HopFill {
  /** Index of the leg the swap belongs to. */
  readonly leg: number
}

/** Every pool swap of the plan, in execution order. */
export const planEdges = (plan: Plan): ReadonlyArray<PlanEdgeFill> =>
  plan.legs.flatMap((leg, index) => leg.fills.map((fill) => ({ ...fill, leg: index })))

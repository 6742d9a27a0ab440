/**
 * What route search is asked and answers (./FindRoute.ts), and how it weighs plans against each other:
 * by output net of gas (exactIn) or by input plus gas (exactOut), whether a plan is one path or a split
 * (./SplitPlan.ts).
 */
import type { Hex } from "../../schema/Chain.js"
import { gasInToken, type GasModel, gasUsdcRaw, pathGasUnits } from "./Gas.js"
import type { Market } from "./Market.js"
import type { Path, PathRun, Side, TransferTaxes } from "./Path.js"
import type { Execution, Plan } from "./Plan.js"

export interface RouteRequest {
  readonly market: Market
  readonly tokenIn: Hex
  readonly tokenOut: Hex
  readonly side: Side
  /** Input (exactIn) or output (exactOut), in base units. */
  readonly amount: bigint
  readonly hubs: ReadonlyArray<Hex>
  readonly maxHops: number
  readonly maxSplits: number
  readonly allowVenue: (venue: string) => boolean
  readonly gas: GasModel
  readonly taxes?: TransferTaxes
}

/** A candidate left unpriced because it cannot enter the best plan (./Prune.ts). */
export interface Dominated {
  readonly _tag: "Dominated"
  readonly reason: "dominated"
}

export interface Candidate {
  readonly path: Path
  /**
   * The path alone for the whole order: priced, or why it is not (simulation needed, cannot fill, cannot
   * enter the best plan).
   */
  readonly run: PathRun | Dominated
  readonly gasUnits: bigint
}

export interface RouteResult {
  readonly candidates: ReadonlyArray<Candidate>
  /** Null when no exactly priced path (or split) fills the order. */
  readonly best: Plan | null
  readonly bestSingle: Plan | null
}

/** Higher is better: output net of gas (exactIn), or minus input and gas (exactOut). */
export const netValue = (plan: Plan): bigint =>
  plan.side === "exactIn" ? plan.amountOut - plan.gasInToken : -(plan.amountIn + plan.gasInToken)

/** An executed order as a plan with its gas; none when it did not fill. */
export const planOf = (request: RouteRequest, run: Execution): Plan | null => {
  if (run._tag !== "Filled" || run.legs.length === 0) return null
  const gasUnits = run.legs.reduce((sum, leg) => sum + pathGasUnits(request.gas, leg.path), 0n)
  return {
    side: request.side,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: run.amountIn,
    amountOut: run.amountOut,
    legs: run.legs,
    gasUnits,
    gasUsdcRaw: gasUsdcRaw(request.gas, gasUnits),
    gasInToken: gasInToken(request.gas, gasUnits)
  }
}

/** One path carrying the whole order, as a plan. */
export const singlePathPlan = (
  request: RouteRequest,
  path: Path,
  run: Extract<PathRun, { readonly _tag: "Filled" }>
): Plan | null => {
  const leg = { path, amountIn: run.amountIn, amountOut: run.amountOut, fills: run.fills }
  return planOf(request, { _tag: "Filled", legs: [leg], amountIn: run.amountIn, amountOut: run.amountOut })
}

export const better = (a: Plan | null, b: Plan | null): Plan | null =>
  a === null ? b : b === null ? a : netValue(b) > netValue(a) ? b : a

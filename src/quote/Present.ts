/**
 * The routes and the chosen plan as the quote answers them: every candidate path with its own price
 * for the whole order, and `best` with its exact amounts, slippage bound and fees. Formatting only:
 * every amount comes from route search (src/routing/), nothing is re-priced.
 */
import { formatUnits } from "viem"
import type { Hex } from "../../schema/Chain.js"
import type { Route } from "../../schema/Route.js"
import { PRICE_SCALE } from "../pricing/Usd.js"
import { checksumOf } from "../routing/Checksum.js"
import type { Candidate } from "../routing/FindRoute.js"
import { type GasModel, gasUsdcRaw } from "../routing/Gas.js"
import type { Path } from "../routing/Path.js"
import type { Plan } from "../routing/Plan.js"
import { feeBpsOf, routeHop, routeIdOf, type ShapeContext } from "../routing/PlanShape.js"

export interface PresentContext extends ShapeContext {
  readonly gas: GasModel
  /** Micro-dollars per base unit × 1e36 (src/pricing/Usd.ts), when the token has a price. */
  readonly price: (token: Hex) => bigint | undefined
  /** Whether the router executes every hop of the path (a venue with a router, not disabled). */
  readonly executable: (path: Path) => boolean
  readonly buyTaxBps: number
  readonly ageBlocks: number
}

const BPS = 10_000n

/** Liquidity-provider fee of a path in bps, compounded over its hops (a hook-set fee counts as 0: unknown). */
const pathFeeBps = (context: ShapeContext, path: Path): number => {
  let kept = 1
  for (const hop of path.hops) kept *= 1 - (feeBpsOf(context.pool(hop.poolId)) ?? 0) / 10_000
  return Math.round((1 - kept) * 10_000 * 100) / 100
}

const feeOf = (context: PresentContext, path: Path, amountIn: bigint) => {
  const bps = pathFeeBps(context, path)
  const decimals = context.token(path.tokenIn).decimals
  // hundredths of a bp keep the product exact in bigint
  const amount = (amountIn * BigInt(Math.round(bps * 100))) / (BPS * 100n)
  return { bps, amount: formatUnits(amount, decimals), token: checksumOf(path.tokenIn), collector: null }
}

/**
 * How much worse than the mid price, in bps: the output's USD value against the input's (or for exactOut
 * the other way round). Null when either token has no price.
 */
const costVsMid = (context: PresentContext, tokenIn: Hex, tokenOut: Hex, amountIn: bigint, amountOut: bigint) => {
  const priceIn = context.price(tokenIn)
  const priceOut = context.price(tokenOut)
  if (priceIn === undefined || priceOut === undefined || amountIn === 0n) return null
  const valueIn = (amountIn * priceIn) / PRICE_SCALE
  const valueOut = (amountOut * priceOut) / PRICE_SCALE
  if (valueIn === 0n) return null
  return Number(((valueIn - valueOut) * 1_000_000n) / valueIn) / 100
}

/** What a route shows that depends on its path and pools only, not on the order. */
interface RouteFrame {
  readonly type: Route["type"]
  readonly routeId: string
  readonly hops: Route["hops"]
}

/**
 * Frames per market snapshot (its pool lookup, one per indexed state: src/routing/Market.ts), by path:
 * a quote repeated on one snapshot rebuilds only its routes' amounts. Gone with the snapshot.
 */
const frames = new WeakMap<ShapeContext["pool"], Map<string, RouteFrame>>()

const frameOf = (context: PresentContext, path: Path): RouteFrame => {
  let known = frames.get(context.pool)
  if (known === undefined) frames.set(context.pool, known = new Map())
  // The key names the pools; the sell token, which way they are crossed.
  const key = `${path.tokenIn}|${path.key}`
  let frame = known.get(key)
  if (frame === undefined) {
    const hops = path.hops.length
    frame = {
      type: hops === 1 ? "direct" : hops === 2 ? "two_hop" : "multi_hop",
      routeId: routeIdOf(path),
      hops: path.hops.map((hop) => routeHop(context, hop))
    }
    known.set(key, frame)
  }
  return frame
}

const presentRoute = (context: PresentContext, candidate: Candidate): Route => {
  const { path, run } = candidate
  const decimalsIn = context.token(path.tokenIn).decimals
  const decimalsOut = context.token(path.tokenOut).decimals
  const filled = run._tag === "Filled"
  const { hops, routeId, type } = frameOf(context, path)
  return {
    type,
    routeId,
    provider: "native",
    hops,
    ...(filled
      ? {
        amountOutQuoted: formatUnits(run.amountOut, decimalsOut),
        amountInQuoted: formatUnits(run.amountIn, decimalsIn),
        pricedBy: run.fills.some((fill) => fill.simulated) ? "simulation" as const : "index" as const
      }
      : { unpricedReason: run.reason }),
    buyTaxBps: context.buyTaxBps,
    costVsMidBps: filled ? costVsMid(context, path.tokenIn, path.tokenOut, run.amountIn, run.amountOut) : null,
    gasUsdc: formatUnits(gasUsdcRaw(context.gas, candidate.gasUnits), 6),
    fee: feeOf(context, path, filled ? run.amountIn : 0n),
    executable: filled && context.executable(path),
    providerQuoteAgeBlocks: context.ageBlocks,
    partialFill: false
  }
}

/**
 * Every candidate as answered, kept per route result: a search repeated on its view (./steps/Route.ts)
 * returns the same candidates, whose routes then need no formatting again. Gas, prices, labels and
 * pools are the view's and the search's, so the same for that result; the measured buy tax and the
 * quote's age are checked.
 */
const presented = new WeakMap<
  ReadonlyArray<Candidate>,
  { readonly buyTaxBps: number; readonly ageBlocks: number; readonly routes: ReadonlyArray<Route> }
>()

export const presentRoutes = (context: PresentContext, candidates: ReadonlyArray<Candidate>): ReadonlyArray<Route> => {
  const known = presented.get(candidates)
  if (known !== undefined && known.buyTaxBps === context.buyTaxBps && known.ageBlocks === context.ageBlocks) {
    return known.routes
  }
  const routes = candidates.map((candidate) => presentRoute(context, candidate))
  presented.set(candidates, { buyTaxBps: context.buyTaxBps, ageBlocks: context.ageBlocks, routes })
  return routes
}

/** exactIn: the output less `slippageBps`, rounded down; exactOut: the output itself. */
export const minAmountOutOf = (plan: Pick<Plan, "side" | "amountOut">, slippageBps: number): bigint =>
  plan.side === "exactIn" ? (plan.amountOut * (BPS - BigInt(slippageBps))) / BPS : plan.amountOut

/** exactOut: the input plus `slippageBps`, rounded up; exactIn: the input itself. */
export const maxAmountInOf = (plan: Pick<Plan, "side" | "amountIn">, slippageBps: number): bigint =>
  plan.side === "exactOut" ? (plan.amountIn * (BPS + BigInt(slippageBps)) + BPS - 1n) / BPS : plan.amountIn

export const planFees = (context: PresentContext, plan: Plan) =>
  plan.legs.map((leg) => feeOf(context, leg.path, leg.amountIn))

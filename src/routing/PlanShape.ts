/**
 * A plan as the quote answer shows it (`best.type`, `best.legs`, `best.graph`, see schema/Route.ts):
 * legs, one per path, when one side is USDC and every path is one or two hops (the spec's `direct`,
 * `two_hop`, `split`); otherwise the same flow as a graph of pool swaps in execution order. Both carry
 * the plan's exact amounts; nothing is re-priced here.
 */
import { Option } from "effect"
import { formatUnits } from "viem"
import { type Hex, hexOption } from "../../schema/Chain.js"
import type { RoutablePool } from "../math/Hop.js"
import { checksumOf } from "./Checksum.js"
import { makePath, type Path, type PathHop } from "./Path.js"
import { type Plan, planEdges } from "./Plan.js"

export interface TokenLabel {
  readonly symbol: string
  readonly decimals: number
}

export interface ShapeContext {
  readonly usdc: Hex
  readonly token: (address: Hex) => TokenLabel
  readonly pool: (id: Hex) => RoutablePool | undefined
}

/** Pool addresses checksummed; a v4 pool id (32 bytes) as is. */
const poolIdText = (id: Hex): string => (id.length === 42 ? checksumOf(id) : id)

/** `<sell>><buy>|<venue>:<poolId>` with `><venue>:<poolId>` per extra hop. */
export const routeIdOf = (path: Path): string =>
  `${checksumOf(path.tokenIn)}>${checksumOf(path.tokenOut)}|` +
  path.hops.map((hop) => `${hop.venue}:${poolIdText(hop.poolId)}`).join(">")

/** The path `routeIdOf` named, on the pools `pool` knows now; none if a pool is gone or no longer joins. */
export const pathOfRouteId = (routeId: string, pool: ShapeContext["pool"]): Path | undefined => {
  const [ends, hopsText] = routeId.split("|")
  const tokenIn = Option.getOrUndefined(hexOption(ends?.split(">")[0]))
  if (tokenIn === undefined || hopsText === undefined) return undefined
  const hops: Array<PathHop> = []
  let from = tokenIn
  for (const hop of hopsText.split(">")) {
    const cut = hop.lastIndexOf(":")
    const poolId = Option.getOrUndefined(hexOption(hop.slice(cut + 1)))
    const found = poolId === undefined ? undefined : pool(poolId)
    if (poolId === undefined || found === undefined || (found.token0 !== from && found.token1 !== from)) {
      return undefined
    }
    const to = found.token0 === from ? found.token1 : found.token0
    hops.push({ poolId, venue: hop.slice(0, cut), kind: found.kind, tokenIn: from, tokenOut: to })
    from = to
  }
  return hops.length === 0 ? undefined : makePath(hops)
}

/** Fee in bps, null when a hook sets it per swap; the launchpad curve charges none. */
export const feeBpsOf = (pool: RoutablePool | undefined): number | null => {
  if (pool === undefined) return null
  switch (pool.kind) {
    case "v2":
    case "v3":
    case "v4":
      return pool.kind === "v4" && pool.dynamicFee ? null : pool.feePips / 100
    case "curve":
      return 0
  }
}

const hooksOf = (pool: RoutablePool | undefined) =>
  pool?.kind === "v4" ? { hooks: pool.hooks === null ? null : checksumOf(pool.hooks) } : {}

export const routeHop = (context: ShapeContext, hop: PathHop) => {
  const pool = context.pool(hop.poolId)
  return {
    venue: hop.venue,
    poolId: poolIdText(hop.poolId),
    tokenIn: context.token(hop.tokenIn).symbol,
    tokenOut: context.token(hop.tokenOut).symbol,
    tokenInAddress: checksumOf(hop.tokenIn),
    tokenOutAddress: checksumOf(hop.tokenOut),
    feeBps: feeBpsOf(pool),
    ...hooksOf(pool)
  }
}

/** Shares of the order in whole bps, at least 1 each, summing to 10,000 (the rest on the largest). */
const sharesBps = (amounts: ReadonlyArray<bigint>): Array<number> => {
  const total = amounts.reduce((a, b) => a + b, 0n)
  const shares = amounts.map((amount) => Math.max(1, Number((amount * 10_000n) / total)))
  const largest = amounts.reduce((best, amount, i) => (amount > amounts[best]! ? i : best), 0)
  shares[largest] = shares[largest]! + 10_000 - shares.reduce((a, b) => a + b, 0)
  return shares
}

export const planShape = (plan: Plan, context: ShapeContext) => {
  const usdcSide = plan.tokenIn === context.usdc || plan.tokenOut === context.usdc
  const asLegs = usdcSide && plan.legs.every((leg) => leg.path.hops.length <= 2)
  const decimalsIn = context.token(plan.tokenIn).decimals
  const decimalsOut = context.token(plan.tokenOut).decimals
  if (asLegs) {
    const shares = sharesBps(plan.legs.map((leg) => (plan.side === "exactIn" ? leg.amountIn : leg.amountOut)))
    return {
      type: plan.legs.length > 1 ? "split" : plan.legs[0]!.path.hops.length === 1 ? "direct" : "two_hop",
      legs: plan.legs.map((leg, i) => ({
        routeId: routeIdOf(leg.path),
        hops: leg.path.hops.map((hop) => routeHop(context, hop)),
        shareBps: shares[i]!,
        amountIn: formatUnits(leg.amountIn, decimalsIn),
        amountInRaw: leg.amountIn.toString(),
        amountOutQuoted: formatUnits(leg.amountOut, decimalsOut),
        amountOutQuotedRaw: leg.amountOut.toString()
      })),
      graph: null
    } as const
  }
  const edges = planEdges(plan).map((edge) => {
    const pool = context.pool(edge.hop.poolId)
    return {
      path: edge.leg,
      venue: edge.hop.venue,
      poolId: poolIdText(edge.hop.poolId),
      tokenInAddress: checksumOf(edge.hop.tokenIn),
      tokenOutAddress: checksumOf(edge.hop.tokenOut),
      amountInRaw: edge.amountIn.toString(),
      amountOutRaw: edge.amountOut.toString(),
      feeBps: feeBpsOf(pool),
      ...hooksOf(pool)
    }
  })
  const tokens = [...new Set(edges.flatMap((edge) => [edge.tokenInAddress, edge.tokenOutAddress]))]
  return { type: "graph", legs: [], graph: { tokens, edges } } as const
}

/**
 * Synthetic pools for routing tests: v2 pairs from reserves, v3/v4 pools from positions (tick ranges
 * with liquidity), priced by the same math the chain tests hold to the unit. Brute force over a grid of
 * allocations is the reference the optimiser is held to.
 */
import { type Hex, lowerAddress } from "../../schema/Chain.js"
import type { ConcentratedPool, V2Pool } from "../../src/math/PoolState.js"
import { getSqrtPriceAtTick } from "../../src/math/TickMath.js"
import type { Market } from "../../src/routing/Market.js"
import { noTaxes, type Path, type Side } from "../../src/routing/Path.js"
import { execute } from "../../src/routing/Plan.js"

export const address = (n: number) => lowerAddress(`0x${n.toString(16).padStart(40, "0")}`)

export const v2Pool = (
  id: number,
  token0: Hex,
  token1: Hex,
  reserve0: bigint,
  reserve1: bigint,
  feePips = 3000
): V2Pool => ({
  kind: "v2",
  id: address(id),
  venue: "uniswap-v2",
  token0,
  token1,
  createdBlock: 0,
  feePips,
  reserve0,
  reserve1
})

/** `positions`: [tickLower, tickUpper, liquidity]; the price sits at `tick`. */
export const concentratedPool = (
  id: number,
  token0: Hex,
  token1: Hex,
  tick: number,
  positions: ReadonlyArray<readonly [number, number, bigint]>,
  options: { readonly kind?: "v3" | "v4"; readonly feePips?: number; readonly tickSpacing?: number } = {}
): ConcentratedPool => {
  const net = new Map<number, bigint>()
  for (const [lower, upper, liquidity] of positions) {
    net.set(lower, (net.get(lower) ?? 0n) + liquidity)
    net.set(upper, (net.get(upper) ?? 0n) - liquidity)
  }
  const kind = options.kind ?? "v3"
  return {
    kind,
    id: address(id),
    venue: kind === "v3" ? "uniswap-v3" : "uniswap-v4",
    token0,
    token1,
    createdBlock: 0,
    feePips: options.feePips ?? 3000,
    dynamicFee: false,
    protocolFee: 0,
    tickSpacing: options.tickSpacing ?? 60,
    hooks: null,
    sqrtPriceX96: getSqrtPriceAtTick(tick),
    tick,
    liquidity: positions.reduce((sum, [lower, upper, l]) => (lower <= tick && tick < upper ? sum + l : sum), 0n),
    ticks: [...net.entries()].sort(([a], [b]) => a - b).map(([t, liquidityNet]) => ({
      tick: t,
      liquidityNet,
      liquidityGross: liquidityNet < 0n ? -liquidityNet : liquidityNet
    }))
  }
}

/** Full range for tick spacing 60. */
export const FULL: readonly [number, number] = [-887220, 887220]

export interface GridBest {
  readonly amounts: ReadonlyArray<bigint>
  readonly value: bigint
}

/**
 * The best allocation on a grid of `steps` parts of the order over the paths (every composition),
 * priced exactly as a plan is executed. Value: output (exactIn) or minus input (exactOut).
 */
export const bruteForce = (
  market: Market,
  paths: ReadonlyArray<Path>,
  side: Side,
  total: bigint,
  steps: number
): GridBest => {
  let best: GridBest = { amounts: [], value: -(1n << 255n) }
  const visit = (prefix: ReadonlyArray<number>, left: number) => {
    if (prefix.length === paths.length - 1) {
      const parts = [...prefix, left]
      const amounts = parts.map((p) => (total * BigInt(p)) / BigInt(steps))
      amounts[amounts.length - 1] = total - amounts.slice(0, -1).reduce((a, b) => a + b, 0n)
      const run = execute(market, paths, amounts, side, noTaxes)
      if (run._tag !== "Filled") return
      const value = side === "exactIn" ? run.amountOut : -run.amountIn
      if (value > best.value) best = { amounts, value }
      return
    }
    for (let p = 0; p <= left; p++) visit([...prefix, p], left - p)
  }
  visit([], steps)
  return best
}

/**
 * What the round trip would yield with no transfer taxes, from the exact hop math on the indexed pool
 * state of the checked block: the buy's pool output, the sell's effective input, the buy's price
 * impact. Taxes are the gap between these and what the simulation delivered, so they are measured
 * behaviour, not a token's claims. Undefined where a pool cannot be priced exactly (a hook that sets
 * fees or returns deltas): then the taxes are not reported rather than guessed, and the round trip's
 * USDC in against USDC out, less what the pools' own fees take, stands for them (./Verdict.ts).
 */
import type { Hex } from "../../../schema/Chain.js"
import type { RoutablePool } from "../../math/Hop.js"
import { makePath, noTaxes, type Path, runPath } from "../../routing/Path.js"
import { overlay } from "../../routing/Plan.js"

const BPS = 10_000n

export type PoolOf = (id: Hex) => RoutablePool | undefined

/** Basis points of `part` in `whole`, rounded to the nearest; 0 for an empty whole. */
export const bpsOf = (part: bigint, whole: bigint): number =>
  whole <= 0n ? 0 : Number((part * BPS * 2n + whole) / (whole * 2n))

/** The same pools backwards: token → … → USDC. */
export const reversePath = (path: Path): Path =>
  makePath(
    [...path.hops].reverse().map((hop) => ({ ...hop, tokenIn: hop.tokenOut, tokenOut: hop.tokenIn }))
  )

/** The buy path's untaxed output for `amountIn`, or undefined when it cannot be priced exactly. */
export const expectedBuyOut = (path: Path, amountIn: bigint, pools: PoolOf): bigint | undefined => {
  const run = runPath(path, "exactIn", amountIn, pools, noTaxes)
  return run._tag === "Filled" ? run.amountOut : undefined
}

/** Price impact of the buy in bps: its output against the output at the marginal (tiny-size) price. */
export const buyImpactBps = (path: Path, amountIn: bigint, pools: PoolOf): number | undefined => {
  const small = amountIn / 10_000n > 1_000n ? amountIn / 10_000n : 1_000n
  if (small >= amountIn) return 0
  const out = expectedBuyOut(path, amountIn, pools)
  const marginal = expectedBuyOut(path, small, pools)
  if (out === undefined || marginal === undefined || marginal === 0n) return undefined
  // out/amountIn against marginal/small, as a shortfall.
  const ideal = (marginal * amountIn) / small
  return ideal <= out ? 0 : bpsOf(ideal - out, ideal)
}

/** The buy tax: what the wallet missed of the pools' untaxed output (`expectedBuyOut`). */
export const buyTaxBps = (out: bigint | undefined, received: bigint): number | undefined => {
  if (out === undefined || out === 0n) return undefined
  return bpsOf(out > received ? out - received : 0n, out)
}

/**
 * The sell tax: what the pools missed of what the wallet sent. The pools' receipt is what the first pool
 * recorded taking (`intake`, ./PoolIntake.ts) where it records it, else the least input that yields the
 * USDC that came out, priced on the pools as the buy left them.
 */
export const sellTaxBps = (
  input: {
    readonly path: Path
    readonly amountIn: bigint
    readonly sent: bigint
    readonly usdcOut: bigint
    readonly pools: PoolOf
    readonly intake: bigint | undefined
  }
): number | undefined => {
  const buy = runPath(input.path, "exactIn", input.amountIn, input.pools, noTaxes)
  if (buy._tag !== "Filled" || input.sent <= 0n) return undefined
  if (input.usdcOut === 0n) return 10_000
  const received = input.intake ?? impliedIntake(input.path, input.usdcOut, input.pools, buy.poolsAfter)
  if (received === undefined) return undefined
  return bpsOf(input.sent > received ? input.sent - received : 0n, input.sent)
}

const impliedIntake = (
  path: Path,
  usdcOut: bigint,
  pools: PoolOf,
  poolsAfterBuy: ReadonlyArray<RoutablePool>
): bigint | undefined => {
  const after = overlay({ pool: pools, poolsBetween: () => [] })
  after.apply(poolsAfterBuy)
  const sell = runPath(reversePath(path), "exactOut", usdcOut, after.lookup, noTaxes)
  return sell._tag === "Filled" ? sell.amountIn : undefined
}

/**
 * What the pools' own lp fees take from a round trip over `path` (each hop crossed twice), in bps: the
 * part of a round trip's loss that is no tax where the hops cannot be priced exactly. A dynamic fee
 * counts as the last one its pool reported; a curve's fee is in its price, so counts as none.
 */
export const poolFeesBps = (path: Path, pools: PoolOf): number =>
  path.hops.reduce((sum, hop) => {
    const pool = pools(hop.poolId)
    return sum + (pool === undefined || pool.kind === "curve" ? 0 : (2 * pool.feePips) / 100)
  }, 0)

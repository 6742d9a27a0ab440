/**
 * Which candidates of an exactIn order cannot enter the best plan, so need not be priced at all. On AMM
 * curves a path's output f(x) is concave with f(0) = 0, so its rate at zero input, r = f'(0), bounds its
 * output from above: f(x) ≤ r·x. A direct path p whose pool no other candidate crosses has, at any share
 * of the order, a marginal of at least s = (f_p(T + δ) − f_p(T)) / δ (concavity again). In any plan that
 * gives x to a candidate c with r_c < s, moving that x onto p (or putting p in c's place) gains at least
 * (s − r_c)·x and, when p's gas is at most c's, loses no gas; the other paths only gain when c leaves a
 * pool they share, as long as every path crosses its pools the same way. So the best plan over every
 * subset of the other candidates is the best over all, and c is dropped from pricing and splitting.
 *
 * Sound only where those premises hold, so applied only then: exactIn, at most two hops (a hub then
 * appears in the middle only, so every pool is crossed in one direction and a direct pool by no other
 * path), a reference p priced exactly, and r known from indexed state: v2 reserves, a v3 or hook-less,
 * fixed-fee v4 pool's price (fees and transfer taxes only lower the true rate). Anything else is kept.
 */
import type { RoutablePool } from "../math/Hop.js"
import { pathGasUnits } from "./Gas.js"
import { type Path, type PathRun, runPath, type TransferTaxes } from "./Path.js"
import type { RouteRequest } from "./RouteSearch.js"

const Q96 = 2 ** 96
/** Float slack on the bound: the rates are computed in doubles. */
const SLACK = 1 + 1e-9

/** f'(0) of one hop selling `tokenIn`, from indexed state, in base units out per base unit in. */
const hopRate = (pool: RoutablePool | undefined, tokenIn: string): number | undefined => {
  if (pool === undefined) return undefined
  const keep = pool.kind === "curve" ? 0 : 1 - pool.feePips / 1e6
  switch (pool.kind) {
    case "v2": {
      const [reserveIn, reserveOut] = pool.token0 === tokenIn
        ? [pool.reserve0, pool.reserve1]
        : [pool.reserve1, pool.reserve0]
      return reserveIn > 0n ? (Number(reserveOut) / Number(reserveIn)) * keep : undefined
    }
    case "v3":
    case "v4": {
      if (pool.kind === "v4" && (pool.hooks !== null || pool.dynamicFee)) return undefined
      const price = (Number(pool.sqrtPriceX96) / Q96) ** 2
      if (!(price > 0) || !Number.isFinite(price)) return undefined
      return (pool.token0 === tokenIn ? price : 1 / price) * keep
    }
    case "curve":
      return undefined
  }
}

/** An upper bound on the path's rate at zero input; undefined when indexed state cannot give one. */
export const rateAtZero = (path: Path, pool: RouteRequest["market"]["pool"]): number | undefined => {
  let rate = 1
  for (const hop of path.hops) {
    const r = hopRate(pool(hop.poolId), hop.tokenIn)
    if (r === undefined) return undefined
    rate *= r
  }
  return rate * SLACK
}

interface Reference {
  readonly gasUnits: bigint
  /** A lower bound on the path's marginal at any share of the order. */
  readonly floor: number
}

/**
 * For each of `paths` (priced alone for the whole order in `runs`), whether it cannot enter the best
 * plan; all false where the premises above do not hold.
 */
export const dominated = (
  request: RouteRequest,
  paths: ReadonlyArray<Path>,
  runs: (i: number) => PathRun,
  taxes: TransferTaxes
): ReadonlyArray<boolean> => {
  const none = paths.map(() => false)
  if (request.side !== "exactIn" || request.maxHops > 2) return none
  const step = request.amount / 1024n > 0n ? request.amount / 1024n : 1n
  const references: Array<Reference> = []
  paths.forEach((path, i) => {
    if (path.hops.length !== 1) return
    const run = runs(i)
    if (run._tag !== "Filled") return
    const further = runPath(path, "exactIn", request.amount + step, request.market.pool, taxes)
    if (further._tag !== "Filled") return
    const floor = Number(further.amountOut - run.amountOut) / Number(step)
    references.push({ gasUnits: pathGasUnits(request.gas, path), floor })
  })
  if (references.length === 0) return none
  return paths.map((path) => {
    if (path.hops.length === 1) return false
    const rate = rateAtZero(path, request.market.pool)
    if (rate === undefined) return false
    const gasUnits = pathGasUnits(request.gas, path)
    return references.some((p) => p.gasUnits <= gasUnits && p.floor > rate)
  })
}

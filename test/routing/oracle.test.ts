/**
 * Route search against the exhaustive oracle (./oracle.ts) on generated markets of 10–20 venues of the
 * v2, v3 and v4 families (./venueMarket.ts: random depths, fees and ranges, a shallow pool priced 1–2 %
 * better among deep ones, a hub whose two-hop paths share pools): the plan, net of gas, is within
 * 0.01 bp of the best over every subset of at most `maxSplits` candidate paths, exactIn and exactOut
 * (exactOut: its input plus gas at most the oracle's + 0.01 bp), and is exactly what executing it yields.
 * The oracle itself is checked on a small market against every subset optimised with no bound.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { RoutablePool } from "../../src/math/Hop.js"
import { findRoute, netValue } from "../../src/routing/FindRoute.js"
import { gasInToken, pathGasUnits } from "../../src/routing/Gas.js"
import { marketFromPools } from "../../src/routing/Market.js"
import { noTaxes } from "../../src/routing/Path.js"
import { execute } from "../../src/routing/Plan.js"
import { oracleBest } from "./oracle.js"
import { hubbedVenueMarket, marketGas, marketOrder, orderSize, venueMarket } from "./venueMarket.js"

const E6 = 10n ** 6n
const E18 = 10n ** 18n
const SEED = 34

const order = fc.record({
  market: fc.integer({ min: 1, max: 1_000_000 }),
  venues: fc.integer({ min: 10, max: 20 }),
  side: fc.constantFrom("exactIn" as const, "exactOut" as const),
  size: fc.double({ min: 0, max: 1, noNaN: true }),
  maxSplits: fc.constantFrom(2, 3),
  gwei: fc.constantFrom(0n, 20n, 2_000n)
})

/**
 * The plan of an order against the oracle: net of gas at least its best − 0.01 bp, at most `maxSplits`
 * legs, exactly what executing it yields, and it fills the order.
 */
const holdsToOracle = (
  pools: ReadonlyArray<RoutablePool>,
  side: "exactIn" | "exactOut",
  amount: bigint,
  maxSplits: number,
  gwei: bigint
) => {
  const market = marketFromPools(pools)
  const gas = marketGas(side, gwei)
  const result = findRoute(marketOrder(market, side, amount, maxSplits, gas))
  const plan = result.best!
  const oracle = oracleBest(market, result.candidates.map((c) => c.path), side, amount, maxSplits, {
    gas: (path) => gasInToken(gas, pathGasUnits(gas, path))
  })!
  const tolerance = (oracle.value < 0n ? -oracle.value : oracle.value) / 1_000_000n
  expect(netValue(plan)).toBeGreaterThanOrEqual(oracle.value - tolerance)
  expect(plan.legs.length).toBeLessThanOrEqual(maxSplits)
  const replay = execute(
    market,
    plan.legs.map((leg) => leg.path),
    plan.legs.map((leg) => (side === "exactIn" ? leg.amountIn : leg.amountOut)),
    side,
    noTaxes
  )
  if (replay._tag !== "Filled") throw new Error(replay._tag)
  expect([replay.amountIn, replay.amountOut]).toEqual([plan.amountIn, plan.amountOut])
  if (side === "exactIn") expect(plan.amountIn).toBe(amount)
  else expect(plan.amountOut).toBeGreaterThanOrEqual(amount)
}

describe("route search against the exhaustive oracle", () => {
  it("the plan is within 0.01 bp of the best over every subset of at most maxSplits paths", () => {
    fc.assert(
      fc.property(order, ({ gwei, market: seed, maxSplits, side, size, venues }) => {
        holdsToOracle(venueMarket(seed, venues).pools, side, orderSize(side, size), maxSplits, gwei)
      }),
      { seed: SEED, numRuns: 24 }
    )
  })

  // The last session's defect: the lines valued two paths through one hub pool as if each had it alone,
  // so subsets sharing it filled the 4 kept and the best (which shares nothing) was never priced exactly.
  it("hubbed, every venue holding both hub pairs: seed 422951, 4 venues, $5,000 or 5/3 WETH, 3 splits", () => {
    const { pools } = hubbedVenueMarket(422_951, 4)
    holdsToOracle(pools, "exactIn", 5_000n * E6, 3, 20n)
    holdsToOracle(pools, "exactOut", (5n * E18) / 3n, 3, 20n)
  })

  // A kink between the points: the best subset's third path (venue-2's direct pool) takes 2 % of the order
  // across a concentrated range end between 1/128 and 1/32 of it, so its line is 0.7 bp under its curve
  // and the subset ranked 5th of the 4 kept by their value on the lines; its bound is the highest of all.
  it("hubbed, a range end between the points: seed 817776, 3 venues, exactOut 27.59 WETH, 3 splits", () => {
    holdsToOracle(hubbedVenueMarket(817_776, 3).pools, "exactOut", 27_590n * E18 / 1000n, 3, 0n)
  })

  it("hubbed markets, two-hop paths sharing hub pools: within 0.01 bp of the oracle", () => {
    fc.assert(
      fc.property(
        order,
        fc.integer({ min: 3, max: 4 }),
        fc.integer({ min: 2, max: 3 }),
        fc.boolean(),
        ({ gwei, market: seed, maxSplits, side, size, venues }, few, holders, mixed) => {
          // Every one of a few venues holding 0.3 % v2 hub pairs, or 2–3 of 10–14 holding any family's
          // (the oracle's time grows with the cube of the candidates; the bench runs larger ones).
          const pools = mixed
            ? hubbedVenueMarket(seed, 10 + (venues % 5), { venues: holders, mixed }).pools
            : hubbedVenueMarket(seed, few).pools
          holdsToOracle(pools, side, orderSize(side, size), maxSplits, gwei)
        }
      ),
      { seed: SEED, numRuns: 4 }
    )
  })

  it("the oracle's bound skips no subset that is better: every subset optimised, on a small market", () => {
    const market = marketFromPools(venueMarket(7, 10).pools)
    for (const side of ["exactIn", "exactOut"] as const) {
      const amount = orderSize(side, 0.6)
      const paths = findRoute(marketOrder(market, side, amount, 1, marketGas(side, 0n))).candidates.map((c) => c.path)
      const bounded = oracleBest(market, paths, side, amount, 2)!
      const everySubset = oracleBest(market, paths, side, amount, 2, { exhaustive: true })!
      expect(everySubset.optimised).toBe(everySubset.subsets)
      expect(bounded.optimised).toBeLessThan(everySubset.optimised)
      expect(bounded.value).toBe(everySubset.value)
    }
  })

  it("a shallow pool priced 1–2 % better among 20 deep venues carries part of a $30,000 order when the best plan does", () => {
    let carried = 0
    for (const seed of [3, 11, 19, 4, 5]) {
      const { cheapVenue, pools } = venueMarket(seed, 20)
      const market = marketFromPools(pools)
      const gas = marketGas("exactIn", 20n)
      const result = findRoute(marketOrder(market, "exactIn", 30_000n * E6, 3, gas))
      const oracle = oracleBest(market, result.candidates.map((c) => c.path), "exactIn", 30_000n * E6, 3, {
        gas: (path) => gasInToken(gas, pathGasUnits(gas, path))
      })!
      const cheap = (paths: ReadonlyArray<{ readonly hops: ReadonlyArray<{ readonly venue: string }> }>) =>
        paths.some((path) => path.hops.length === 1 && path.hops[0]!.venue === cheapVenue)
      const used = cheap(result.best!.legs.map((leg) => leg.path))
      expect(used).toBe(cheap(oracle.paths))
      if (used) carried++
    }
    expect(carried).toBeGreaterThan(0)
  })
})

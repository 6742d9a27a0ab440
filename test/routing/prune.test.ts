/**
 * Candidates left unpriced (src/routing/Prune.ts) on a market with many two-hop paths, every venue
 * holding both hub pairs (./venueMarket.ts `hubbedVenueMarket`): the exhaustive oracle's best over the
 * candidates kept is its best over every candidate, dropped ones included, and some are dropped;
 * exactOut and paths of three hops drop none. (The plan against the oracle is ./oracle.test.ts's.)
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { findRoute, type RouteRequest } from "../../src/routing/FindRoute.js"
import { gasInToken, pathGasUnits } from "../../src/routing/Gas.js"
import { marketFromPools } from "../../src/routing/Market.js"
import { oracleBest } from "./oracle.js"
import { hubbedVenueMarket, marketGas, marketOrder, orderSize } from "./venueMarket.js"

const E18 = 10n ** 18n

const requestOf = (seed: number, venues: number, overrides: Partial<RouteRequest>): RouteRequest => ({
  ...marketOrder(
    marketFromPools(hubbedVenueMarket(seed, venues).pools),
    "exactIn",
    orderSize("exactIn", 0.5),
    3,
    marketGas("exactIn", 20n)
  ),
  ...overrides
})

const dropped = (request: RouteRequest) =>
  findRoute(request).candidates.filter((c) => c.run._tag === "Dominated").length

describe("candidates that cannot enter the best plan", () => {
  it("are left unpriced, and the best plan over the others is the best over all", () => {
    let total = 0
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 4, max: 6 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(2, 3),
        fc.constantFrom(0n, 20n, 2_000n),
        (seed, venues, size, maxSplits, gwei) => {
          const gas = marketGas("exactIn", gwei)
          const request = requestOf(seed, venues, { amount: orderSize("exactIn", size), maxSplits, gas })
          const result = findRoute(request)
          total += result.candidates.filter((c) => c.run._tag === "Dominated").length
          const oracle = (candidates: typeof result.candidates) =>
            oracleBest(request.market, candidates.map((c) => c.path), "exactIn", request.amount, maxSplits, {
              gas: (path) => gasInToken(gas, pathGasUnits(gas, path))
            })!.value
          const all = oracle(result.candidates)
          expect(oracle(result.candidates.filter((c) => c.run._tag !== "Dominated"))).toBe(all)
        }
      ),
      { seed: 20, numRuns: 8 }
    )
    expect(total).toBeGreaterThan(0)
  })

  it("only on exactIn orders of at most two hops", () => {
    expect(dropped(requestOf(7, 8, {}))).toBeGreaterThan(0)
    expect(dropped(requestOf(7, 8, { side: "exactOut", amount: 5n * E18 }))).toBe(0)
    expect(dropped(requestOf(7, 8, { maxHops: 3 }))).toBe(0)
  })
})

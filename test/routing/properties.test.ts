/**
 * Route search on random markets (v2 pairs and v3/v4 pools of random depth, fee and range, a launchpad
 * curve, through two hubs): for every request the chosen plan is exactly what executing it yields, an
 * exactIn plan spends the order and an exactOut plan delivers at least it, the plan never nets below the
 * best single path, and on two-path instances it is within 1 bp of a fine brute-force grid.
 */
import { describe, expect, it } from "@effect/vitest"
import type { RoutablePool } from "../../src/math/Hop.js"
import { findRoute, netValue } from "../../src/routing/FindRoute.js"
import { defaultHopGas } from "../../src/routing/Gas.js"
import { marketFromPools } from "../../src/routing/Market.js"
import { noTaxes } from "../../src/routing/Path.js"
import { execute } from "../../src/routing/Plan.js"
import { address, bruteForce, concentratedPool, FULL, v2Pool } from "./fixtures.js"

const [USDC, HUB, HUB2, TOKEN] = [address(0x1), address(0x2), address(0x3), address(0x4)]
const E18 = 10n ** 18n

/** Deterministic pseudo-random numbers, so a failure reproduces. */
const lcg = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  return seed / 2 ** 31
}

const randomMarket = (seed: number): ReadonlyArray<RoutablePool> => {
  const next = lcg(seed)
  const depth = () => BigInt(Math.floor(1e3 + next() * 1e6)) * E18
  const pairs = [[USDC, TOKEN], [USDC, HUB], [HUB, TOKEN], [USDC, HUB2], [HUB2, TOKEN], [HUB, HUB2]] as const
  let id = 100
  return pairs.flatMap(([a, b]) =>
    Array.from({ length: 1 + Math.floor(next() * 2) }, (): RoutablePool => {
      const reserve = depth()
      if (next() < 0.5) return v2Pool(id++, a, b, reserve, reserve, [30, 25, 100][Math.floor(next() * 3)]!)
      const width = 600 * (1 + Math.floor(next() * 20))
      return concentratedPool(id++, a, b, 0, [[-width, width, reserve / 10n], [...FULL, reserve / 200n]], {
        kind: next() < 0.5 ? "v3" : "v4",
        feePips: [500, 3000, 10_000][Math.floor(next() * 3)]!
      })
    })
  ).concat([{
    kind: "curve",
    id: address(0x99),
    venue: "launchpad",
    token0: USDC,
    token1: TOKEN,
    usdc: USDC,
    token: TOKEN,
    curve: {
      usdcReserve: 60_000n * E18,
      tokenReserve: 50_000n * E18,
      virtualUsdc: 5_000n * E18,
      graduationUsdc: 10n ** 30n
    }
  }])
}

describe("route search on random markets", () => {
  it("plans are exact, fill the order and never net below the best single path", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const pools = randomMarket(seed)
      const market = marketFromPools(pools)
      const next = lcg(seed * 7)
      for (const side of ["exactIn", "exactOut"] as const) {
        const amount = BigInt(Math.floor(1 + next() * 200_000)) * E18
        const result = findRoute({
          market,
          tokenIn: USDC,
          tokenOut: TOKEN,
          side,
          amount,
          hubs: [HUB, HUB2],
          maxHops: 3,
          maxSplits: 3,
          allowVenue: () => true,
          gas: {
            perHop: defaultHopGas,
            perPath: 25_000n,
            gasPriceWei: BigInt(Math.floor(next() * 1e15)),
            tokenPrice: { tokenRaw: E18, usdcRaw: 10n ** 6n }
          }
        })
        if (result.best === null) continue
        const best = result.best
        const replay = execute(
          market,
          best.legs.map((leg) => leg.path),
          best.legs.map((leg) => side === "exactIn" ? leg.amountIn : leg.amountOut),
          side,
          noTaxes
        )
        if (replay._tag !== "Filled") throw new Error(replay._tag)
        expect([replay.amountIn, replay.amountOut]).toEqual([best.amountIn, best.amountOut])
        if (side === "exactIn") expect(best.amountIn).toBe(amount)
        else expect(best.amountOut).toBeGreaterThanOrEqual(amount)
        expect(netValue(best)).toBeGreaterThanOrEqual(netValue(result.bestSingle!))
        expect(best.legs.length).toBeLessThanOrEqual(3)
      }
    }
  })

  it("two-path splits are within 1 bp of a 0.1 % grid", () => {
    for (let seed = 20; seed <= 27; seed++) {
      const pools = randomMarket(seed).filter((pool) => pool.token0 === USDC && pool.token1 === TOKEN).slice(0, 2)
      if (pools.length < 2) continue
      const market = marketFromPools(pools)
      const amount = BigInt(Math.floor(1 + lcg(seed)() * 300_000)) * E18
      const result = findRoute({
        market,
        tokenIn: USDC,
        tokenOut: TOKEN,
        side: "exactIn",
        amount,
        hubs: [],
        maxHops: 1,
        maxSplits: 2,
        allowVenue: () => true,
        gas: { perHop: defaultHopGas, perPath: 0n, gasPriceWei: 0n, tokenPrice: null }
      })
      const paths = result.candidates.map((c) => c.path)
      const grid = bruteForce(market, paths, "exactIn", amount, 1000)
      expect(result.best!.amountOut).toBeGreaterThanOrEqual(grid.value - grid.value / 10_000n)
    }
  })
})

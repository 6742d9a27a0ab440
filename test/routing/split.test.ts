/**
 * The split the service plans (bestSplit, ./SplitPlan.ts, which findRoute calls) against brute force:
 * on two- and three-path instances (one with a pool shared by two paths) its plan is within 1 bp of the
 * best allocation on a fine grid, exactIn and exactOut, its amounts in base units summing to the order;
 * it is never below the best single path at any size; a shared pool's curve is spent once.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Hex } from "../../schema/Chain.js"
import type { RoutablePool } from "../../src/math/Hop.js"
import { candidatePaths } from "../../src/routing/Candidates.js"
import { findRoute, netValue } from "../../src/routing/FindRoute.js"
import { defaultHopGas, type GasModel } from "../../src/routing/Gas.js"
import { type Market, marketFromPools } from "../../src/routing/Market.js"
import { makePath, noTaxes, type Path, runPath, type Side } from "../../src/routing/Path.js"
import { execute, type Plan } from "../../src/routing/Plan.js"
import { bestSplit } from "../../src/routing/SplitPlan.js"
import { address, bruteForce, concentratedPool, FULL, v2Pool } from "./fixtures.js"

const USDC = address(0xa0)
const WETH = address(0xb0)
const WBTC = address(0xc0)
const E6 = 10n ** 6n
const E18 = 10n ** 18n

/** WETH at about 3,000 USDC on three venues of different depth and fee, and through WBTC. */
const pools: ReadonlyArray<RoutablePool> = [
  v2Pool(1, USDC, WETH, 3_000_000n * E6, 1_000n * E18),
  // USDC is token0: 10¹⁸ WETH units per 3,000·10⁶ USDC units is tick 196,256; ±~10 % concentrated.
  concentratedPool(2, USDC, WETH, 196256, [[195240, 197220, 3n * 10n ** 16n], [...FULL, 5n * 10n ** 15n]], {
    feePips: 500
  }),
  v2Pool(3, USDC, WBTC, 1_200_000n * E6, 20n * 10n ** 8n),
  v2Pool(4, WBTC, WETH, 10n * 10n ** 8n, 200n * E18)
]
const market = marketFromPools(pools)
const path = (...ids: ReadonlyArray<number>): Path => {
  let token: Hex = USDC
  return makePath(ids.map((id) => {
    const pool = pools.find((p) => p.id === address(id))!
    const tokenOut = pool.token0 === token ? pool.token1 : pool.token0
    const hop = { poolId: pool.id, venue: pool.venue, kind: pool.kind, tokenIn: token, tokenOut }
    token = tokenOut
    return hop
  }))
}

/** Value of an allocation: output (exactIn) or minus input (exactOut). */
const valueOf = (m: Market, paths: ReadonlyArray<Path>, amounts: ReadonlyArray<bigint>, side: Side) => {
  const run = execute(m, paths, amounts, side, noTaxes)
  if (run._tag !== "Filled") throw new Error(run._tag)
  return side === "exactIn" ? run.amountOut : -run.amountIn
}

/** |a − b| within 1 bp of |b|, a allowed to be better. */
const withinOneBp = (value: bigint, reference: bigint) => {
  const tolerance = (reference < 0n ? -reference : reference) / 10_000n
  expect(value).toBeGreaterThanOrEqual(reference - tolerance)
}

const noGas: GasModel = { perHop: defaultHopGas, perPath: 25_000n, gasPriceWei: 0n, tokenPrice: null }

/** The service's split of `total` over `paths` (USDC in), gas free so that its value is the allocation's. */
const split = (m: Market, paths: ReadonlyArray<Path>, tokenOut: Hex, side: Side, total: bigint): Plan => {
  const request = {
    market: m,
    tokenIn: USDC,
    tokenOut,
    side,
    amount: total,
    hubs: [],
    maxHops: 2,
    maxSplits: paths.length,
    allowVenue: () => true,
    gas: noGas
  }
  const plan = bestSplit(request, paths, noTaxes)
  expect(plan).not.toBeNull()
  return plan!
}

/** Per path, the amount the plan gives it in base units (input for exactIn, output for exactOut); 0 if unused. */
const amountsOf = (plan: Plan, paths: ReadonlyArray<Path>): ReadonlyArray<bigint> =>
  paths.map((p) => {
    const leg = plan.legs.find((l) => l.path === p)
    return leg === undefined ? 0n : plan.side === "exactIn" ? leg.amountIn : leg.amountOut
  })

/** The plan's value, checked against re-executing its amounts, and its amounts against the order. */
const checkedValue = (m: Market, plan: Plan, paths: ReadonlyArray<Path>, total: bigint): bigint => {
  const amounts = amountsOf(plan, paths)
  expect(amounts.reduce((a, b) => a + b, 0n)).toBe(total)
  if (plan.side === "exactIn") expect(plan.amountIn).toBe(total)
  else expect(plan.amountOut).toBe(total)
  expect(plan.gasInToken).toBe(0n)
  const value = plan.side === "exactIn" ? plan.amountOut : -plan.amountIn
  expect(value).toBe(valueOf(m, paths, amounts, plan.side))
  return value
}

describe("split within 1 bp of a fine brute-force grid", () => {
  const twoPaths = [path(1), path(2)]
  const threePaths = [path(1), path(2), path(3, 4)]

  for (const side of ["exactIn", "exactOut"] as const) {
    for (const size of [200_000n, 1_500_000n]) {
      const total = side === "exactIn" ? size * E6 : (size * E18) / 3000n
      it(`${side}, two venues of one pair, ${size} USDC`, () => {
        const plan = split(market, twoPaths, WETH, side, total)
        const grid = bruteForce(market, twoPaths, side, total, 2000)
        withinOneBp(checkedValue(market, plan, twoPaths, total), grid.value)
        expect(amountsOf(plan, twoPaths).every((amount) => amount > 0n)).toBe(true)
      })
      it(`${side}, three paths with a two-hop, ${size} USDC`, () => {
        const plan = split(market, threePaths, WETH, side, total)
        const grid = bruteForce(market, threePaths, side, total, 150)
        withinOneBp(checkedValue(market, plan, threePaths, total), grid.value)
      })
    }
  }

  it("a pool shared by two paths is spent once: its second path prices against what the first left", () => {
    // Two paths out of one USDC/WETH pool into two WETH/WBTC pools, and a direct USDC/WBTC pool.
    const shared = [
      v2Pool(10, USDC, WETH, 2_000_000n * E6, 666n * E18),
      v2Pool(11, WETH, WBTC, 500n * E18, 25n * 10n ** 8n),
      v2Pool(12, WETH, WBTC, 300n * E18, 15n * 10n ** 8n),
      v2Pool(13, USDC, WBTC, 900_000n * E6, 15n * 10n ** 8n)
    ]
    const sharedMarket = marketFromPools(shared)
    const paths = candidatePaths(sharedMarket, USDC, WBTC, { maxHops: 2, hubs: [WETH], allowVenue: () => true })
    expect(paths.length).toBe(3)
    const total = 800_000n * E6
    for (const side of ["exactIn", "exactOut"] as const) {
      const amount = side === "exactIn" ? total : 12n * 10n ** 8n
      const plan = split(sharedMarket, paths, WBTC, side, amount)
      const grid = bruteForce(sharedMarket, paths, side, amount, 200)
      withinOneBp(checkedValue(sharedMarket, plan, paths, amount), grid.value)
    }
    // Pricing each path on its own pool state would count the shared pool's curve twice.
    const plan = split(sharedMarket, paths, WBTC, "exactIn", total)
    const amounts = amountsOf(plan, paths)
    const alone = paths.reduce((sum, p, i) => {
      const run = runPath(p, "exactIn", amounts[i]!, sharedMarket.pool, noTaxes)
      return run._tag === "Filled" ? sum + run.amountOut : sum
    }, 0n)
    const twoHops = paths.filter((p) => p.hops.length === 2)
    expect(twoHops.length).toBe(2)
    expect(twoHops.every((p) => amounts[paths.indexOf(p)]! > 0n)).toBe(true)
    expect(alone).toBeGreaterThan(checkedValue(sharedMarket, plan, paths, total))
  })
})

describe("never below the best single path", () => {
  const request = (side: Side, amount: bigint, gas: GasModel) => ({
    market,
    tokenIn: USDC,
    tokenOut: WETH,
    side,
    amount,
    hubs: [WBTC],
    maxHops: 2,
    maxSplits: 3,
    allowVenue: () => true,
    gas
  })
  const usdcPerWeth: GasModel = {
    ...noGas,
    gasPriceWei: 20n * 10n ** 9n * 10n ** 3n,
    tokenPrice: { tokenRaw: E18, usdcRaw: 3000n * E6 }
  }

  for (const side of ["exactIn", "exactOut"] as const) {
    it(`${side}: at every size from dust to most of the market, with and without gas`, () => {
      for (let exponent = 0; exponent <= 13; exponent++) {
        const usdc = 10n ** BigInt(exponent) / 10n + 1n
        const amount = side === "exactIn" ? usdc * E6 : (usdc * E18) / 3000n
        for (
          const gas of [noGas, {
            ...usdcPerWeth,
            tokenPrice: side === "exactIn" ? usdcPerWeth.tokenPrice : { tokenRaw: E6, usdcRaw: E6 }
          }]
        ) {
          const result = findRoute(request(side, amount, gas))
          if (result.bestSingle === null) continue
          expect(result.best).not.toBeNull()
          expect(netValue(result.best!)).toBeGreaterThanOrEqual(netValue(result.bestSingle))
          if (gas.gasPriceWei === 0n && side === "exactIn") {
            expect(result.best!.amountOut).toBeGreaterThanOrEqual(result.bestSingle.amountOut)
          }
          if (gas.gasPriceWei === 0n && side === "exactOut") {
            expect(result.best!.amountIn).toBeLessThanOrEqual(result.bestSingle.amountIn)
          }
          if (side === "exactOut") expect(result.best!.amountOut).toBeGreaterThanOrEqual(amount)
          if (side === "exactIn") expect(result.best!.amountIn).toBe(amount)
        }
      }
    })
  }
})

describe("gas is netted out", () => {
  // Two identical pools: any split gains only from a flatter curve, which a small order does not need.
  const twins = marketFromPools([
    v2Pool(20, USDC, WETH, 3_000_000n * E6, 1_000n * E18),
    v2Pool(21, USDC, WETH, 3_000_000n * E6, 1_000n * E18)
  ])
  const gas = (gasPriceGwei: bigint): GasModel => ({
    ...noGas,
    gasPriceWei: gasPriceGwei * 10n ** 9n,
    tokenPrice: { tokenRaw: E18, usdcRaw: 3000n * E6 }
  })
  const route = (amount: bigint, model: GasModel) =>
    findRoute({
      market: twins,
      tokenIn: USDC,
      tokenOut: WETH,
      side: "exactIn",
      amount: amount * E6,
      hubs: [],
      maxHops: 1,
      maxSplits: 2,
      allowVenue: () => true,
      gas: model
    })

  it("a split that gains less than its extra gas is not chosen; one that gains more is", () => {
    const small = route(5_000n, gas(0n))
    expect(small.best!.legs.length).toBe(2)
    const smallGain = small.best!.amountOut - small.bestSingle!.amountOut
    // Gas priced so that one more path costs more than the split gains at 5,000 USDC…
    const pricey = gas(1_000_000n)
    const extraGas = route(5_000n, pricey).bestSingle!.gasInToken
    expect(extraGas).toBeGreaterThan(smallGain)
    expect(route(5_000n, pricey).best!.legs.length).toBe(1)
    // …but far less than it gains at 1,000,000 USDC.
    const large = route(1_000_000n, pricey)
    expect(large.best!.legs.length).toBe(2)
    expect(netValue(large.best!)).toBeGreaterThan(netValue(large.bestSingle!))
  })
})

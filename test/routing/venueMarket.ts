/**
 * A generated USDC/WETH market of many venues, for the routing oracle's property test and the routing
 * bench: one pool per venue of a random family (v2 pair, v3 or v4 pool with a concentrated position and
 * a thin full-range one), random depth ($2M–$20M), fee and a price within ±5 bp of 3,000 USDC; one venue
 * is a shallow v2 pair ($20k–$150k, 0.2 % fee) priced 1–2 % better; and a hub (60,000 USDC) with two pools on each side,
 * whose four two-hop paths share pools pairwise.
 */
import type { Hex } from "../../schema/Chain.js"
import type { RoutablePool } from "../../src/math/Hop.js"
import type { RouteRequest } from "../../src/routing/FindRoute.js"
import { defaultHopGas, defaultPathGas, type GasModel } from "../../src/routing/Gas.js"
import { address, concentratedPool, FULL, v2Pool } from "./fixtures.js"

export const [MARKET_USDC, MARKET_WETH, MARKET_HUB] = [address(0xa0), address(0xb0), address(0xa8)]
const E6 = 10n ** 6n
const E18 = 10n ** 18n

/** Deterministic pseudo-random numbers in [0, 1), so that a seed names one market. */
export const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

export interface VenueMarket {
  readonly pools: ReadonlyArray<RoutablePool>
  /** The venue of the shallow, cheaper pool. */
  readonly cheapVenue: string
}

/** `usdcPerToken` in USDC per whole token (18 decimals), USDC token0: the pool's tick. */
const tickOf = (usdcPerToken: number) => Math.round(Math.log(1e12 / usdcPerToken) / Math.log(1.0001))

const pool = (
  id: number,
  venue: string,
  family: number,
  [a, b]: readonly [Hex, Hex],
  usdcPerToken: number,
  depthUsd: number,
  fee: number,
  width: number
): RoutablePool => {
  // Both sides worth `depthUsd`; `a` is USDC-priced at 1 (USDC, or the hub against WETH through `usdcPerA`).
  const usdcPerA = a === MARKET_USDC ? 1 : 60_000
  const reserveA = BigInt(Math.round((depthUsd / usdcPerA) * 1e6)) * (a === MARKET_USDC ? 1n : 10n ** 12n)
  const reserveB = BigInt(Math.round((depthUsd / usdcPerToken) * 1e6)) * 10n ** 12n
  if (family === 0) return { ...v2Pool(id, a, b, reserveA, reserveB, fee), venue }
  const tick = tickOf(usdcPerToken / usdcPerA)
  // A v2 pair of this depth has liquidity √(xy); a position ±`width` ticks wide as deep holds about that.
  const liquidity = BigInt(Math.round(Math.sqrt(Number(reserveA) * Number(reserveB))))
  const centre = Math.round(tick / 60) * 60
  return {
    ...concentratedPool(id, a, b, tick, [[centre - width, centre + width, liquidity], [...FULL, liquidity / 50n]], {
      kind: family === 1 ? "v3" : "v4",
      feePips: fee
    }),
    venue
  }
}

export const venueMarket = (seed: number, venues: number): VenueMarket => {
  const next = seeded(seed)
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(next() * xs.length)]!
  const cheap = Math.floor(next() * venues)
  const pools: Array<RoutablePool> = []
  for (let v = 0; v < venues; v++) {
    const shallow = v === cheap
    // The shallow pool is a v2 fork's 0.2 % pair, as the fork of issue 34 was.
    const family = shallow ? 0 : Math.floor(next() * 3)
    const fee = shallow ? 2000 : family === 0 ? pick([1000, 2000, 2500, 3000]) : pick([100, 500, 3000, 10_000])
    const jitter = 1 + (next() - 0.5) * 1e-3
    const price = 3000 * jitter * (shallow ? 1 - 0.01 - next() * 0.01 : 1)
    const depth = shallow ? 20_000 + next() * 130_000 : 2e6 + next() * 18e6
    const width = 600 * (1 + Math.floor(next() * 10))
    pools.push(pool(1000 + v, `venue-${v}`, family, [MARKET_USDC, MARKET_WETH], price, depth, fee, width))
  }
  for (let h = 0; h < 4; h++) {
    const pair = h < 2 ? [MARKET_USDC, MARKET_HUB] as const : [MARKET_HUB, MARKET_WETH] as const
    const price = h < 2 ? 60_000 * (1 + (next() - 0.5) * 1e-3) : 3000 * (1 + (next() - 0.5) * 1e-3)
    pools.push(pool(2000 + h, `venue-${h}`, 0, pair, price, 1e6 + next() * 5e6, pick([500, 3000]), 0))
  }
  return { pools, cheapVenue: `venue-${cheap}` }
}

export interface HubPairs {
  /** How many venues (the first) hold both hub pairs; default every one. */
  readonly venues?: number
  /**
   * Every family (v2, v3, v4) and fee for the hub pairs, depths from $20,000, and one of them shallow and
   * priced 1–2 % better; by default 0.3 % v2 pairs of $50,000–$3M (the markets of issue 34's defect).
   */
  readonly mixed?: boolean
}

/**
 * `venueMarket` with venues also holding both hub pairs (USDC/hub, hub/WETH) at their own depth and
 * price (within ±0.4 %), as the many-venues bench's clones do: venues + hub venues² + 4 candidate paths,
 * the two-hop paths of one hub venue sharing its pools.
 */
export const hubbedVenueMarket = (seed: number, venues: number, hubs: HubPairs = {}): VenueMarket => {
  const base = venueMarket(seed, venues)
  const next = seeded(seed + 1)
  const holders = hubs.venues ?? venues
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(next() * xs.length)]!
  const cheap = hubs.mixed === true ? Math.floor(next() * 2 * holders) : -1
  const pools = [...base.pools]
  for (let v = 0; v < holders; v++) {
    const pairs: ReadonlyArray<readonly [Hex, Hex]> = [[MARKET_USDC, MARKET_HUB], [MARKET_HUB, MARKET_WETH]]
    for (const [n, pair] of pairs.entries()) {
      const shallow = 2 * v + n === cheap
      const price = (n === 0 ? 60_000 : 3000) * (1 + (next() - 0.5) * 8e-3) * (shallow ? 0.99 - next() * 0.01 : 1)
      const depth = shallow ? 2e4 + next() * 1.3e5 : hubs.mixed === true ? 2e4 + next() * 5e6 : 5e4 + next() * 3e6
      const family = hubs.mixed === true ? Math.floor(next() * 3) : 0
      const fee = hubs.mixed !== true ? 3000 : family === 0 ? pick([1000, 2000, 2500, 3000]) : pick([100, 500, 3000])
      const width = family === 0 ? 0 : 600 * (1 + Math.floor(next() * 10))
      pools.push(pool(3000 + 2 * v + n, `venue-${v}`, family, pair, price, depth, fee, width))
    }
  }
  return { ...base, pools }
}

/** An order's size: exactIn $5k–$100k of USDC, exactOut 2–30 WETH. */
export const orderSize = (side: "exactIn" | "exactOut", u: number): bigint =>
  side === "exactIn"
    ? BigInt(Math.round(5_000 + u * 95_000)) * E6
    : (BigInt(Math.round(2_000 + u * 28_000)) * E18) / 1000n

/** Gas at `gwei`, priced in the order's other token: WETH at $3,000 (exactIn), USDC (exactOut). */
export const marketGas = (side: "exactIn" | "exactOut", gwei: bigint): GasModel => ({
  perHop: defaultHopGas,
  perPath: defaultPathGas,
  gasPriceWei: gwei * 10n ** 9n,
  tokenPrice: side === "exactIn" ? { tokenRaw: E18, usdcRaw: 3000n * E6 } : { tokenRaw: E6, usdcRaw: E6 }
})

/** A USDC→WETH order on such a market, through its hub, every venue allowed, at most two hops. */
export const marketOrder = (
  market: RouteRequest["market"],
  side: "exactIn" | "exactOut",
  amount: bigint,
  maxSplits: number,
  gas: GasModel
): RouteRequest => ({
  market,
  tokenIn: MARKET_USDC,
  tokenOut: MARKET_WETH,
  side,
  amount,
  hubs: [MARKET_HUB],
  maxHops: 2,
  maxSplits,
  allowVenue: () => true,
  gas
})

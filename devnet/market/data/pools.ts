/**
 * The seeded pools, as data. `usd` is the value a position holds at the spec prices, half on each side.
 *
 * WETH/USDC is deep on every venue, the fork venues too (about $13M in all) so that a large order pays to split; WBTC and
 * EURC are hubs with USDC and WETH pairs for two-hop and graph routes; DEGEN's deep market is against
 * WETH only; THIN's one pool is too thin to exit; the taxed token trades on v2 (v3 and v4 refuse
 * fee-on-transfer sells); two v4 pools carry hooks (a dynamic anti-snipe fee and a creator fee).
 */
export type HookRole = "dynamicFeeHook" | "swapFeeHook"

/** `range`: "full", or ± that many percent around the price. */
export interface PositionSpec {
  readonly usd: number
  readonly range: "full" | number
}

/** `fork`: on a fork venue (devnet/forkVenues.ts) rather than Uniswap's own: `lowfee-v2`, `fork-v3`.
 * `pairFeeBps`: on the v2.5 venue `pairfee-v2` (devnet/pairFeeVenue.ts), with the fee fixed for that pair. */
export type PoolSpec =
  | {
    readonly venue: "v2"
    readonly pair: readonly [string, string]
    readonly usd: number
    readonly fork?: true
    readonly pairFeeBps?: number
  }
  | {
    readonly venue: "v3"
    readonly fork?: true
    readonly pair: readonly [string, string]
    /** hundredths of a bip: 100, 500, 3000, 10000; 2500 on the fork */
    readonly fee: number
    readonly positions: ReadonlyArray<PositionSpec>
  }
  | {
    /** PancakeSwap v3 (devnet/pancakeVenue.ts): 100, 500, 2500, 10000 */
    readonly venue: "pancake-v3"
    readonly pair: readonly [string, string]
    readonly fee: number
    readonly positions: ReadonlyArray<PositionSpec>
  }
  | {
    readonly venue: "v4"
    readonly pair: readonly [string, string]
    /** hundredths of a bip, or "dynamic" (set by the hook per swap) */
    readonly fee: number | "dynamic"
    readonly tickSpacing: number
    readonly hook?: HookRole
    readonly positions: ReadonlyArray<PositionSpec>
  }

const full = (usd: number): ReadonlyArray<PositionSpec> => [{ usd, range: "full" }]

export const poolSpecs: ReadonlyArray<PoolSpec> = [
  // Uniswap v2
  { venue: "v2", pair: ["WETH", "USDC"], usd: 3_000_000 },
  { venue: "v2", pair: ["WBTC", "USDC"], usd: 1_200_000 },
  { venue: "v2", pair: ["EURC", "USDC"], usd: 400_000 },
  { venue: "v2", pair: ["WETH", "WBTC"], usd: 1_000_000 },
  { venue: "v2", pair: ["DEGEN", "WETH"], usd: 300_000 },
  { venue: "v2", pair: ["DEGEN", "USDC"], usd: 20_000 },
  { venue: "v2", pair: ["ORBIT", "WETH"], usd: 100_000 },
  { venue: "v2", pair: ["THIN", "USDC"], usd: 80 },
  { venue: "v2", pair: ["TAX", "USDC"], usd: 100_000 },
  { venue: "v2", pair: ["HONEY", "USDC"], usd: 80_000 },
  { venue: "v2", pair: ["CAPPED", "USDC"], usd: 60_000 },
  { venue: "v2", pair: ["WETH_IMPOSTOR", "USDC"], usd: 40_000 },
  { venue: "v2", pair: ["SHARED_A", "USDC"], usd: 50_000 },
  // Uniswap v3: several fee tiers, concentrated and full-range positions
  {
    venue: "v3",
    pair: ["WETH", "USDC"],
    fee: 500,
    positions: [{ usd: 3_500_000, range: 20 }, { usd: 500_000, range: "full" }]
  },
  { venue: "v3", pair: ["WETH", "USDC"], fee: 3000, positions: full(600_000) },
  { venue: "v3", pair: ["WETH", "USDC"], fee: 10000, positions: full(10_000) },
  { venue: "v3", pair: ["WBTC", "USDC"], fee: 3000, positions: [{ usd: 1_500_000, range: 25 }] },
  { venue: "v3", pair: ["EURC", "USDC"], fee: 100, positions: [{ usd: 1_000_000, range: 2 }] },
  { venue: "v3", pair: ["WETH", "WBTC"], fee: 500, positions: [{ usd: 800_000, range: 20 }] },
  { venue: "v3", pair: ["ORBIT", "USDC"], fee: 10000, positions: full(150_000) },
  { venue: "v3", pair: ["SHARED_B", "USDC"], fee: 3000, positions: full(30_000) },
  { venue: "v3", pair: ["HONEY", "USDC"], fee: 3000, positions: full(20_000) },
  // Uniswap v4: plain, hooked dynamic-fee and creator-fee pools
  {
    venue: "v4",
    pair: ["WETH", "USDC"],
    fee: 500,
    tickSpacing: 10,
    positions: [{ usd: 1_800_000, range: 20 }, { usd: 200_000, range: "full" }]
  },
  {
    venue: "v4",
    pair: ["WETH", "USDC"],
    fee: "dynamic",
    tickSpacing: 60,
    hook: "dynamicFeeHook",
    positions: full(500_000)
  },
  {
    venue: "v4",
    pair: ["ZAP", "USDC"],
    fee: "dynamic",
    tickSpacing: 60,
    hook: "dynamicFeeHook",
    positions: full(60_000)
  },
  { venue: "v4", pair: ["BLOOM", "USDC"], fee: 3000, tickSpacing: 60, hook: "swapFeeHook", positions: full(90_000) },
  { venue: "v4", pair: ["EURC", "USDC"], fee: 100, tickSpacing: 1, positions: [{ usd: 300_000, range: 1 }] },
  { venue: "v4", pair: ["WBTC", "USDC"], fee: 3000, tickSpacing: 60, positions: full(400_000) },
  { venue: "v4", pair: ["ORBIT", "USDC"], fee: 3000, tickSpacing: 60, positions: full(50_000) },
  // Fork venues on the deep pairs, so that a large order splits across forks
  { venue: "v2", fork: true, pair: ["WETH", "USDC"], usd: 1_500_000 },
  { venue: "v2", fork: true, pair: ["WBTC", "USDC"], usd: 400_000 },
  { venue: "v3", fork: true, pair: ["WETH", "USDC"], fee: 2500, positions: [{ usd: 1_200_000, range: 20 }] },
  // The v2.5 venue: a fee per pair, fixed when the pair was created
  { venue: "v2", pairFeeBps: 25, pair: ["WETH", "USDC"], usd: 1_000_000 },
  { venue: "v2", pairFeeBps: 15, pair: ["WBTC", "USDC"], usd: 300_000 },
  { venue: "v2", pairFeeBps: 4, pair: ["EURC", "USDC"], usd: 200_000 },
  // PancakeSwap v3, its pools made by a separate pool deployer
  { venue: "pancake-v3", pair: ["WETH", "USDC"], fee: 500, positions: [{ usd: 1_000_000, range: 15 }] },
  { venue: "pancake-v3", pair: ["WBTC", "USDC"], fee: 2500, positions: full(300_000) }
]

/**
 * The seeded tokens, as data. Prices are realistic so that USD depth, fees and gas compare sensibly;
 * decimals cover 6, 8 and 18. Only `verified` tokens enter the token list (the service's verification
 * source); every other token is something the service must judge from the chain alone.
 */
export type TokenKind = "plain" | "tax" | "honeypot" | "capped"

export interface TokenSpec {
  /** Key in the manifest's `tokens`. */
  readonly label: string
  readonly kind: TokenKind
  readonly name: string
  readonly symbol: string
  /** Plain tokens choose; taxed, honeypot and capped tokens are always 18. */
  readonly decimals: number
  readonly priceUsd: number
  /** Whole tokens minted to the deployer. */
  readonly supply: number
  readonly verified?: { readonly coinId: string; readonly tags: ReadonlyArray<string> }
  readonly buyTaxBps?: number
  readonly sellTaxBps?: number
  /** Whole tokens; a larger single buy or sell through a pool reverts. */
  readonly maxTxAmount?: number
}

/** USDC is planted at its Arc address rather than deployed; listed here for prices and the token list. */
export const USDC: TokenSpec = {
  label: "USDC",
  kind: "plain",
  name: "USDC",
  symbol: "USDC",
  decimals: 6,
  priceUsd: 1,
  supply: 0,
  verified: { coinId: "usd-coin", tags: ["stablecoin"] }
}

export const tokenSpecs: ReadonlyArray<TokenSpec> = [
  {
    label: "WETH",
    kind: "plain",
    name: "Wrapped Ether",
    symbol: "WETH",
    decimals: 18,
    priceUsd: 3_000,
    supply: 1_000_000,
    verified: { coinId: "weth", tags: ["hub"] }
  },
  {
    label: "WBTC",
    kind: "plain",
    name: "Wrapped BTC",
    symbol: "WBTC",
    decimals: 8,
    priceUsd: 60_000,
    supply: 50_000,
    verified: { coinId: "wrapped-bitcoin", tags: ["hub"] }
  },
  {
    label: "EURC",
    kind: "plain",
    name: "EURC",
    symbol: "EURC",
    decimals: 6,
    priceUsd: 1.08,
    supply: 100_000_000,
    verified: { coinId: "euro-coin", tags: ["stablecoin", "hub"] }
  },
  // Unverified but healthy: reachable directly and through hubs.
  {
    label: "DEGEN",
    kind: "plain",
    name: "Degen Coin",
    symbol: "DEGEN",
    decimals: 18,
    priceUsd: 0.005,
    supply: 10_000_000_000
  },
  {
    label: "ORBIT",
    kind: "plain",
    name: "Orbit Protocol",
    symbol: "ORBIT",
    decimals: 18,
    priceUsd: 0.42,
    supply: 1_000_000_000
  },
  // Only on hooked v4 pools: a dynamic (anti-snipe) fee and a creator fee.
  {
    label: "ZAP",
    kind: "plain",
    name: "Zap Launch",
    symbol: "ZAP",
    decimals: 18,
    priceUsd: 0.02,
    supply: 1_000_000_000
  },
  {
    label: "BLOOM",
    kind: "plain",
    name: "Bloom Creator Coin",
    symbol: "BLOOM",
    decimals: 18,
    priceUsd: 0.15,
    supply: 1_000_000_000
  },
  // Its only pool holds about $80: nothing meaningful can be sold back.
  {
    label: "THIN",
    kind: "plain",
    name: "Thin Liquidity Token",
    symbol: "THIN",
    decimals: 18,
    priceUsd: 0.1,
    supply: 1_000_000_000
  },
  // Same symbol and name as a verified token, different address, absent from the token list.
  {
    label: "WETH_IMPOSTOR",
    kind: "plain",
    name: "Wrapped Ether",
    symbol: "WETH",
    decimals: 18,
    priceUsd: 2_950,
    supply: 1_000_000
  },
  // Two unrelated projects that happen to share a ticker.
  {
    label: "SHARED_A",
    kind: "plain",
    name: "Nova Finance",
    symbol: "NOVA",
    decimals: 18,
    priceUsd: 0.25,
    supply: 1_000_000_000
  },
  {
    label: "SHARED_B",
    kind: "plain",
    name: "NovaSwap Token",
    symbol: "NOVA",
    decimals: 6,
    priceUsd: 0.03,
    supply: 10_000_000_000
  },
  {
    label: "TAX",
    kind: "tax",
    name: "Taxed Token",
    symbol: "TAXD",
    decimals: 18,
    priceUsd: 0.1,
    supply: 1_000_000_000,
    buyTaxBps: 300,
    sellTaxBps: 500
  },
  {
    label: "HONEY",
    kind: "honeypot",
    name: "Honey Pot Inu",
    symbol: "HONEY",
    decimals: 18,
    priceUsd: 0.05,
    supply: 1_000_000_000
  },
  {
    label: "CAPPED",
    kind: "capped",
    name: "Capped Token",
    symbol: "CAPD",
    decimals: 18,
    priceUsd: 0.1,
    supply: 1_000_000_000,
    maxTxAmount: 5_000
  }
]

export const allTokenSpecs: ReadonlyArray<TokenSpec> = [USDC, ...tokenSpecs]

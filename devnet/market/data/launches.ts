/**
 * Launchpad tokens, as data: who creates each, when, and the curve trades that follow. One token
 * graduates into a Uniswap v2 pool, one stays on its curve, one was just created. Clients are indexes
 * into the manifest accounts; times are minutes before the end of the bootstrap.
 */
export interface CurveTradeSpec {
  readonly minutesAgo: number
  readonly trader: number
  /** USDC spent on a buy, or the share of the trader's tokens sold back. */
  readonly buyUsdc?: number
  readonly sellShare?: number
}

export interface LaunchSpec {
  readonly label: string
  readonly name: string
  readonly symbol: string
  readonly creator: number
  readonly createdMinutesAgo: number
  readonly trades: ReadonlyArray<CurveTradeSpec>
  /** When set, the creator tops the curve up to the threshold if needed and graduates it then. */
  readonly graduateMinutesAgo?: number
}

export const launchSpecs: ReadonlyArray<LaunchSpec> = [
  {
    label: "LAUNCH_GRAD",
    name: "Rocket Dog",
    symbol: "RDOG",
    creator: 3,
    createdMinutesAgo: 330,
    trades: [
      { minutesAgo: 325, trader: 3, buyUsdc: 500 },
      { minutesAgo: 320, trader: 1, buyUsdc: 6_000 },
      { minutesAgo: 300, trader: 2, buyUsdc: 5_000 },
      { minutesAgo: 280, trader: 4, buyUsdc: 5_000 },
      { minutesAgo: 270, trader: 1, sellShare: 0.3 },
      { minutesAgo: 260, trader: 5, buyUsdc: 3_000 },
      { minutesAgo: 250, trader: 0, buyUsdc: 2_500 }
    ],
    graduateMinutesAgo: 240
  },
  {
    label: "LAUNCH_CURVE",
    name: "Moon Cat",
    symbol: "MCAT",
    creator: 2,
    createdMinutesAgo: 180,
    trades: [
      { minutesAgo: 178, trader: 2, buyUsdc: 300 },
      { minutesAgo: 170, trader: 0, buyUsdc: 1_500 },
      { minutesAgo: 150, trader: 3, buyUsdc: 800 },
      { minutesAgo: 140, trader: 5, buyUsdc: 400 },
      { minutesAgo: 130, trader: 3, sellShare: 0.5 },
      { minutesAgo: 8, trader: 4, buyUsdc: 250 }
    ]
  },
  {
    label: "LAUNCH_FRESH",
    name: "Fresh Frog",
    symbol: "FROG",
    creator: 4,
    createdMinutesAgo: 10,
    trades: []
  }
]

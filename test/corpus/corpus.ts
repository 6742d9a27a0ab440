/**
 * The corpus of real-world token designs (contracts/corpus/), one row per design: how it is listed,
 * its settings, the verdict the service owes it, and the taxes measured by hand for a $100 buy and the
 * sell-back of everything bought, right after ./deploy.ts, through Uniswap's Router02 (v2) or
 * PoolSwapTest (v4), in basis points as the service defines them (src/safety/check/Expected.ts: the buy
 * tax against the pool's untaxed output; the sell tax against what the pair recorded taking for the
 * seller's swap, on v4 against the least input the pool needed for the USDC that came out, where the
 * service cannot split a hook's take and judges the round trip instead). byHand.test.ts measures them
 * again; the other corpus tests read them from here.
 */
export type CorpusName = "tax" | "reflection" | "dividend" | "poolBurn" | "launch" | "hookFee" | "hookTrap"

export interface CorpusEntry {
  readonly name: CorpusName
  readonly design: string
  readonly venue: "v2" | "v4"
  readonly verdict: "ok" | "taxed" | "cannot_sell"
  readonly next: "swap" | "stop"
  /** Measured by hand (see above). */
  readonly buyTaxBps: number
  readonly sellTaxBps: number
}

/** The by-hand round trip's size: $100 of USDC (6 decimals). */
export const ROUND_TRIP_USDC = 100_000_000n

/** How far a re-measurement may stray from the recorded figure: token orders differ between runs (the
 * deployer is a fresh account), which moves roundings by a unit. */
export const MEASURE_TOLERANCE_BPS = 2

/** Settings the deployment gives each design (bps unless named otherwise). */
export const settings = {
  tax: { buyFeeBps: 300, sellFeeBps: 500 },
  reflection: { reflectionFeeBps: 200, liquidityFeeBps: 300 },
  dividend: { feeBps: 500, distributorGas: 500_000n },
  poolBurn: { sellBurnBps: 100, poolBurnBps: 100 },
  launch: { buyTaxBps: 200, sellTaxBps: 200 },
  hookFee: { sellFeeBps: 300 },
  hookTrap: { sellFeeBps: 9_000 }
} as const

export const corpus: ReadonlyArray<CorpusEntry> = [
  {
    name: "tax",
    design: "fees held by the token, swapAndLiquify through Router02 into its own pair during a sell",
    venue: "v2",
    verdict: "taxed",
    next: "swap",
    buyTaxBps: 300,
    sellTaxBps: 500
  },
  {
    name: "reflection",
    design: "SafeMoon-style rOwned/tOwned reflection to holders plus a liquified liquidity fee",
    venue: "v2",
    verdict: "taxed",
    next: "swap",
    buyTaxBps: 500,
    sellTaxBps: 500
  },
  {
    name: "dividend",
    design: "fees sold for USDC into a distributor; process(gas) on every transfer behind a gasleft() check",
    venue: "v2",
    verdict: "taxed",
    next: "swap",
    buyTaxBps: 500,
    sellTaxBps: 500
  },
  {
    name: "poolBurn",
    design: "a sell burns part of the pair's tokens and calls pair.sync(), and burns part of the sell",
    venue: "v2",
    verdict: "taxed",
    next: "swap",
    buyTaxBps: 0,
    sellTaxBps: 100
  },
  {
    name: "launch",
    design: "anti-bot launch: max tx, max wallet, launch tax, launch-block snipers barred, one buy per block",
    venue: "v2",
    verdict: "taxed",
    next: "swap",
    buyTaxBps: 200,
    sellTaxBps: 200
  },
  {
    name: "hookFee",
    design: "plain token in a v4 pool whose hook keeps 3 % of each sell (a creator fee)",
    venue: "v4",
    verdict: "taxed",
    next: "swap",
    buyTaxBps: 0,
    sellTaxBps: 301
  },
  {
    name: "hookTrap",
    design: "plain token in a v4 pool whose hook keeps 90 % of each sell",
    venue: "v4",
    verdict: "cannot_sell",
    next: "stop",
    buyTaxBps: 0,
    sellTaxBps: 9002
  }
]

export const honest = corpus.filter((entry) => entry.verdict !== "cannot_sell")
export const traps = corpus.filter((entry) => entry.verdict === "cannot_sell")

/**
 * Swap history: the client accounts trade every pool in turn over the last two hours, buying and
 * selling sizes that scale with the pool's depth, so pools carry volume, traders and moved prices.
 * Token behaviour shapes the plan only as a real trader would meet it: a honeypot is only bought
 * (its sells revert), a capped token is traded under its cap.
 */
import type { Address } from "viem"
import { type Market, type SeededPool, token, usdWorth } from "./context.js"
import type { TimedStep } from "./steps.js"
import { swapExactIn } from "./trade.js"

const WINDOW = { fromMinutesAgo: 120, toMinutesAgo: 15 } as const
const MAX_TRADE_USD = 15_000
const TRADERS = 6

const tradesFor = (pool: SeededPool): number => (pool.usd >= 1_000_000 ? 6 : pool.usd >= 50_000 ? 4 : 2)

interface PlannedTrade {
  readonly pool: SeededPool
  readonly trader: number
  readonly sell: boolean
  readonly usd: number
}

const plan = (market: Market, pools: ReadonlyArray<SeededPool>): ReadonlyArray<PlannedTrade> => {
  const trades: Array<PlannedTrade> = []
  const longest = Math.max(...pools.map(tradesFor))
  // Round-robin over pools so that every pool's trades spread across the whole window.
  for (let round = 0; round < longest; round++) {
    for (const [p, pool] of pools.entries()) {
      if (round >= tradesFor(pool)) continue
      const base = token(market, pool.pair[0]).spec
      const cap = base.maxTxAmount === undefined ? Infinity : base.maxTxAmount * base.priceUsd * 0.8
      trades.push({
        pool,
        trader: (p * 7 + round) % TRADERS,
        sell: base.kind !== "honeypot" && round % 2 === 1,
        usd: Math.min(pool.usd * 0.003 * (1 + (round % 3)), MAX_TRADE_USD, cap)
      })
    }
  }
  return trades
}

export const historySteps = (market: Market, clients: ReadonlyArray<Address>): ReadonlyArray<TimedStep> => {
  const trades = plan(market, market.pools)
  const span = WINDOW.fromMinutesAgo - WINDOW.toMinutesAgo
  return trades.map((trade, i) => {
    const [baseLabel, quoteLabel] = trade.pool.pair
    const inLabel = trade.sell ? baseLabel : quoteLabel
    return {
      minutesAgo: WINDOW.fromMinutesAgo - (span * i) / trades.length,
      run: swapExactIn(
        market,
        trade.pool,
        clients[trade.trader] ?? (clients[0] as Address),
        token(market, inLabel).address,
        usdWorth(market, inLabel, trade.usd)
      )
    }
  })
}

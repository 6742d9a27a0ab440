/**
 * The sell-back across time: a token that sells in the block after the buy may lock its holders later
 * (a sell window that closes, a gate on the block's parity, a tax that rises with the holding time).
 * So besides the measured round trip (buy in block N+1, sell in N+2), fresh wallets buy and sell back
 * after waiting each horizon below, all in the same `eth_simulateV1` request: each horizon's wallet
 * buys right after the previous wallet sold (the pools close to where they were, one extra holder at
 * a time) and sells after its wait, the later blocks placed by number and time overrides.
 *
 * Horizons, as waits after the holder's own buy (Arc makes about two blocks a second):
 * - the next block again, from a buy one block later: the sell lands in a block of the other parity
 *   than the measured one, so a gate on odd or even blocks fails one of the two;
 * - 30 blocks (15 s): past anti-bot cooldowns and short sell windows;
 * - an hour (7,200 blocks) and a day (172,800 blocks): windows and timers counted in blocks or seconds.
 * Each costs one buy and one sell more in the request; none costs a round trip.
 */
import type { Address } from "viem"
import type { BlockSpacing, SimCall, SimResult } from "../../../layers/Simulator.js"
import type { RouterPlan } from "../../execution/RouterPlan.js"
import { buyCalls, type BuyOutcome, readBuy, readSell, sellCalls, type SellOutcome } from "./RoundTrip.js"

export interface Horizon {
  /** How the reason names it: "sells revert <label> after the buy". */
  readonly label: string
  readonly wait: BlockSpacing
}

export const HORIZONS: ReadonlyArray<Horizon> = [
  { label: "one block (in a block of the other parity)", wait: { blocks: 1n, seconds: 1n } },
  { label: "30 blocks", wait: { blocks: 30n, seconds: 15n } },
  { label: "an hour", wait: { blocks: 7_200n, seconds: 3_600n } },
  { label: "a day", wait: { blocks: 172_800n, seconds: 86_400n } }
]

/** The measured round trip's own wait: the block after the buy. */
const NEXT_BLOCK: BlockSpacing = { blocks: 1n, seconds: 1n }

/** One wallet's part: its buy and its sell-back plans. */
export interface Trip {
  readonly wallet: Address
  readonly buy: RouterPlan
  readonly sell: RouterPlan
}

/**
 * The blocks of the request: the measured trip's buy; then, per block, the previous wallet's sell
 * followed by the next wallet's buy. `trips[0]` is the measured one, `trips[i]` waits `horizons[i-1]`.
 */
export const schedule = (
  router: Address,
  token: Address,
  trips: ReadonlyArray<Trip>,
  horizons: ReadonlyArray<Horizon>
) => {
  const blocks: Array<Array<SimCall>> = [buyCalls(router, trips[0]!.wallet, token, trips[0]!.buy)]
  const spacing: Array<BlockSpacing | undefined> = [undefined]
  trips.forEach((trip, i) => {
    const next = trips[i + 1]
    blocks.push([
      ...sellCalls(router, trip.wallet, token, trip.sell),
      ...(next === undefined ? [] : buyCalls(router, next.wallet, token, next.buy))
    ])
    spacing.push(i === 0 ? NEXT_BLOCK : horizons[i - 1]!.wait)
  })
  return { blocks, spacing }
}

export interface TripOutcome {
  readonly bought: BuyOutcome
  /** Null when the buy failed: nothing to sell. */
  readonly sold: SellOutcome | null
}

const BUY_CALLS = 3
const SELL_CALLS = 4

/** What each trip did, in `trips` order, from the blocks `schedule` laid out. */
export const readTrips = (
  router: Address,
  trips: ReadonlyArray<Trip>,
  results: ReadonlyArray<ReadonlyArray<SimResult>>
): ReadonlyArray<TripOutcome> =>
  trips.map((trip, i) => {
    // A trip's buy is the first block's calls, or the calls after the previous trip's sell.
    const buyAt = i === 0 ? 0 : SELL_CALLS
    const bought = readBuy(router, trip.wallet, (results[i] ?? []).slice(buyAt, buyAt + BUY_CALLS))
    const sold = bought._tag === "Bought"
      ? readSell(router, trip.wallet, (results[i + 1] ?? []).slice(0, SELL_CALLS))
      : null
    return { bought, sold }
  })

export interface HorizonOutcome extends TripOutcome {
  readonly horizon: Horizon
}

/** The later trips, each with its horizon. */
export const byHorizon = (
  outcomes: ReadonlyArray<TripOutcome>,
  horizons: ReadonlyArray<Horizon>
): ReadonlyArray<HorizonOutcome> => outcomes.slice(1).map((outcome, i) => ({ ...outcome, horizon: horizons[i]! }))

/**
 * A swap whose simulation from the taker reverted, as the error the taker sees: the pools moved against
 * the plan (`quote_stale`: quote again), or the chain refuses the swap from this wallet (`swap_reverts`).
 */
import { QuoteStale, SwapReverts } from "../../schema/Errors.js"
import type { TakerOutcome } from "./TakerSimulation.js"

export const revertedSwap = (
  outcome: Extract<TakerOutcome, { _tag: "Reverted" }>,
  swap: "swap" | "final swap",
  block: number
) =>
  outcome.priceMoved
    ? new QuoteStale({ message: `the ${swap} no longer meets the quote: ${outcome.reason}`, hint: "quote again" })
    : new SwapReverts({
      message: `the ${swap} reverts when simulated from the taker at block ${block}: ${outcome.reason}`,
      hint: "the token or a pool refuses this wallet; do not send it"
    })

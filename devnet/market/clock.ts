/**
 * Backdated time for the bootstrap. Anvil starts six hours in the past; each phase moves the clock to
 * its own moment, so tokens have ages and the swap history spreads over hours (within any 24 h
 * window the service measures), and the last step brings the chain to the present.
 */
import { Effect } from "effect"
import type { DevnetError } from "../DevnetError.js"
import type { Tx } from "../Tx.js"

export const HISTORY_HOURS = 6

export interface Clock {
  /** Unix seconds at which the bootstrap started: the chain ends here. */
  readonly end: number
  readonly genesis: number
  /** Makes the next block carry `secondsBeforeEnd` before the end, unless the chain is already later. */
  readonly at: (secondsBeforeEnd: number) => Effect.Effect<void, DevnetError>
  /** Mines one block at the present so that new blocks follow wall-clock time. */
  readonly catchUp: Effect.Effect<void, DevnetError>
}

export const makeClock = (tx: Tx, end: number): Clock => {
  let last = end - HISTORY_HOURS * 3600
  const at = (secondsBeforeEnd: number) => {
    const target = end - Math.round(secondsBeforeEnd)
    if (target <= last) return Effect.void
    last = target
    return tx.at(target)
  }
  const catchUp = Effect.suspend(() => {
    const now = Math.max(Math.floor(Date.now() / 1000), last + 1)
    last = now
    return Effect.zipRight(tx.request("evm_setNextBlockTimestamp", [now]), Effect.asVoid(tx.request("evm_mine", [])))
  })
  return { end, genesis: end - HISTORY_HOURS * 3600, at, catchUp }
}

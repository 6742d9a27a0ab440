/**
 * One shared head read at arrival (./ChainHead.ts): the callers waiting for it, each a callback woken
 * once when it lands. No fiber, lock or timer fiber per caller: under a burst of callers those cost
 * more than the read itself.
 */
import { Duration, Effect, type Exit } from "effect"
import type { RpcUnavailable } from "../../schema/Errors.js"
import type { Header } from "./ChainSource.js"

type Landed = Exit.Exit<Header, RpcUnavailable>
type Waiter = (exit: Landed) => void

export interface HeadRound {
  readonly waiters: Set<Waiter>
  exit: Landed | undefined
}

export const makeRound = (): HeadRound => ({ waiters: new Set(), exit: undefined })

/** The read landed: every waiter is answered, and a caller joining later is answered at once. */
export const settle = (round: HeadRound, exit: Landed) => {
  round.exit = exit
  for (const waiter of round.waiters) waiter(exit)
  round.waiters.clear()
}

const join = (round: HeadRound, waiter: Waiter) =>
  round.exit === undefined ? round.waiters.add(waiter) : waiter(round.exit)

/** What the round's read answers. */
export const awaitRound = (round: HeadRound): Effect.Effect<Header, RpcUnavailable> =>
  Effect.async((resume) => {
    const waiter: Waiter = (exit) => resume(exit)
    join(round, waiter)
    return Effect.sync(() => round.waiters.delete(waiter))
  })

/**
 * Waits for the round's read at most `bound`, whatever it answers: the round once its read landed, or
 * undefined when the bound passed first.
 */
export const awaitRoundWithin = (
  round: HeadRound,
  bound: Duration.DurationInput
): Effect.Effect<HeadRound | undefined> =>
  Effect.async((resume) => {
    const waiter = () => {
      clearTimeout(timer)
      resume(Effect.succeed(round))
    }
    const timer = setTimeout(() => {
      round.waiters.delete(waiter)
      resume(Effect.succeed(undefined))
    }, Duration.toMillis(bound))
    join(round, waiter)
    return Effect.sync(() => {
      clearTimeout(timer)
      round.waiters.delete(waiter)
    })
  })

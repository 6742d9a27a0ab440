/**
 * One shared head read at arrival (./ChainHead.ts): the callers waiting for it, each a callback woken
 * once when it lands. No fiber, lock or timer fiber per caller: under a burst of callers those cost
 * more than the read itself. Callers that wait at most a bound share one timer per round and bound.
 */
import { Duration, Effect, type Exit } from "effect"
import type { RpcUnavailable } from "../../schema/Errors.js"
import type { Header } from "./ChainSource.js"

type Landed = Exit.Exit<Header, RpcUnavailable>
type Waiter = (exit: Landed) => void

/** The callers of a round that stop waiting after a bound, and the one timer that stops them. */
interface Expiry {
  readonly timer: ReturnType<typeof setTimeout>
  readonly waiters: Set<() => void>
}

export interface HeadRound {
  readonly waiters: Set<Waiter>
  /** By bound (ms). */
  readonly expiries: Map<number, Expiry>
  exit: Landed | undefined
}

export const makeRound = (): HeadRound => ({ waiters: new Set(), expiries: new Map(), exit: undefined })

/** The read landed: every waiter is answered, and a caller joining later is answered at once. */
export const settle = (round: HeadRound, exit: Landed) => {
  round.exit = exit
  for (const { timer } of round.expiries.values()) clearTimeout(timer)
  round.expiries.clear()
  for (const waiter of round.waiters) waiter(exit)
  round.waiters.clear()
}

const join = (round: HeadRound, waiter: Waiter) =>
  round.exit === undefined ? round.waiters.add(waiter) : waiter(round.exit)

/** The round's timer for `millis`, started by the first caller that waits at most that long. */
const expiryOf = (round: HeadRound, millis: number): Expiry => {
  const running = round.expiries.get(millis)
  if (running !== undefined) return running
  const waiters = new Set<() => void>()
  const timer = setTimeout(() => {
    round.expiries.delete(millis)
    for (const expired of waiters) expired()
  }, millis)
  const expiry = { timer, waiters }
  round.expiries.set(millis, expiry)
  return expiry
}

/** What the round's read answers. */
export const awaitRound = (round: HeadRound): Effect.Effect<Header, RpcUnavailable> =>
  Effect.async((resume) => {
    const waiter: Waiter = (exit) => resume(exit)
    join(round, waiter)
    return Effect.sync(() => round.waiters.delete(waiter))
  })

/**
 * Waits for the round's read at most `bound` (counted from the round's first such caller, so a later
 * one may wait less), whatever it answers: the round once its read landed, or undefined when the bound
 * passed first.
 */
export const awaitRoundWithin = (
  round: HeadRound,
  bound: Duration.DurationInput
): Effect.Effect<HeadRound | undefined> =>
  Effect.async((resume) => {
    if (round.exit !== undefined) return resume(Effect.succeed(round))
    const expiry = expiryOf(round, Duration.toMillis(bound))
    const landed = () => {
      expiry.waiters.delete(expired)
      resume(Effect.succeed(round))
    }
    const expired = () => {
      round.waiters.delete(landed)
      resume(Effect.succeed(undefined))
    }
    round.waiters.add(landed)
    expiry.waiters.add(expired)
    return Effect.sync(() => {
      round.waiters.delete(landed)
      expiry.waiters.delete(expired)
    })
  })

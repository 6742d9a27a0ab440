/**
 * The risk broadcast settlement takes, kept bounded and in view (docs/payments.md#settlement-modes):
 * answers served whose settlement is not confirmed yet (count and value, capped: past the cap calls
 * settle `confirmed`), at most one such settlement per payer (a payer's next call waits for it, so its
 * payment is verified against a chain that already holds the one before; it waits until its own
 * authorization ends at most, then is refused uncharged), and the debts of payers whose
 * settlement failed after they were served (refused until paid or until the refusal time has passed).
 *
 * This file keeps it in the process (one replica); with `REDIS_URL` set ./RedisExposure.ts keeps it in
 * Redis, so replicas share one book: one slot per payer across them all, and a debt found by one refuses
 * the payer on every other.
 */
import { Clock, Deferred, Effect, FiberId } from "effect"
import type { LedgerUnavailable } from "./AuthorizationLedger.js"

/** A served call whose settlement failed: what the payer owes and since when. */
export interface Debt {
  readonly payer: string
  readonly value: bigint
  readonly transaction: string
  readonly reason: string
  /** Transfers to the fee recipient from this block on count towards paying it. */
  readonly sinceBlock: bigint
  readonly untilMs: number
}

/** What the operator sees (health's `payments`). */
export interface ExposureSnapshot {
  readonly unconfirmed: { readonly count: number; readonly value: bigint }
  readonly debts: { readonly count: number; readonly value: bigint }
}

export const nothingUnconfirmed: ExposureSnapshot = {
  unconfirmed: { count: 0, value: 0n },
  debts: { count: 0, value: 0n }
}

/** The book, wherever it is kept; a book in Redis fails `LedgerUnavailable` when Redis does not answer. */
export interface ExposureBook {
  /**
   * Holds the payer's one slot for the authorization `key`, waiting while another call holds it, until
   * `expiresAtMs` at most: false when the authorization ended while it waited (the slot is not held).
   */
  readonly take: (payer: string, key: string, expiresAtMs: number) => Effect.Effect<boolean, LedgerUnavailable>
  /** Gives the payer's slot back if `key` holds it: the next waiting call goes on. */
  readonly free: (payer: string, key: string) => Effect.Effect<void>
  /**
   * Counts `value` as unconfirmed under the authorization `key` (until `expiresAtMs`) unless that would
   * pass the cap: true when counted. One step, so calls racing for the last room under the cap (on any
   * replica) cannot both get it.
   */
  readonly reserve: (key: string, value: bigint, expiresAtMs: number) => Effect.Effect<boolean, LedgerUnavailable>
  readonly close: (key: string) => Effect.Effect<void>
  readonly owe: (debt: Omit<Debt, "untilMs">) => Effect.Effect<void>
  /** The payer's debt while it still refuses the payer. */
  readonly debtOf: (payer: string) => Effect.Effect<Debt | undefined, LedgerUnavailable>
  readonly forgive: (payer: string) => Effect.Effect<void, LedgerUnavailable>
  readonly snapshot: Effect.Effect<ExposureSnapshot>
}

export const sum = (values: Iterable<bigint>) => {
  let total = 0n
  for (const value of values) total += value
  return total
}

export interface ExposureSettings {
  readonly unconfirmedCap: bigint
  readonly debtRefusalSec: number
}

export const exposureBook = (settings: ExposureSettings): ExposureBook => {
  const slots = new Map<string, { readonly key: string; readonly done: Deferred.Deferred<void> }>()
  const unconfirmed = new Map<string, bigint>()
  const debts = new Map<string, Debt>()
  const payerOf = (payer: string) => payer.toLowerCase()

  const take = (payer: string, key: string, expiresAtMs: number): Effect.Effect<boolean> =>
    Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
      const held = slots.get(payerOf(payer))
      if (held === undefined) {
        slots.set(payerOf(payer), { key, done: Deferred.unsafeMake<void>(FiberId.none) })
        return Effect.succeed(true)
      }
      if (nowMs >= expiresAtMs) return Effect.succeed(false)
      return Deferred.await(held.done).pipe(
        Effect.timeoutOption(expiresAtMs - nowMs),
        Effect.zipRight(Effect.suspend(() => take(payer, key, expiresAtMs)))
      )
    })

  const free = (payer: string, key: string): Effect.Effect<void> =>
    Effect.suspend(() => {
      const held = slots.get(payerOf(payer))
      if (held === undefined || held.key !== key) return Effect.void
      slots.delete(payerOf(payer))
      return Deferred.succeed(held.done, undefined)
    })

  return {
    take,
    free,
    reserve: (key, value) =>
      Effect.sync(() => {
        if (sum(unconfirmed.values()) + value > settings.unconfirmedCap) return false
        unconfirmed.set(key, value)
        return true
      }),
    close: (key: string) => Effect.sync(() => void unconfirmed.delete(key)),
    owe: (debt: Omit<Debt, "untilMs">) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
        Effect.sync(() => {
          const before = debts.get(payerOf(debt.payer))
          debts.set(payerOf(debt.payer), {
            ...debt,
            value: debt.value + (before?.value ?? 0n),
            sinceBlock: before?.sinceBlock ?? debt.sinceBlock,
            untilMs: nowMs + settings.debtRefusalSec * 1000
          })
        })),
    debtOf: (payer: string) =>
      Effect.map(Clock.currentTimeMillis, (nowMs) => {
        const debt = debts.get(payerOf(payer))
        if (debt !== undefined && debt.untilMs <= nowMs) debts.delete(payerOf(payer))
        return debt !== undefined && debt.untilMs > nowMs ? debt : undefined
      }),
    forgive: (payer: string) => Effect.sync(() => void debts.delete(payerOf(payer))),
    snapshot: Effect.map(Clock.currentTimeMillis, (nowMs): ExposureSnapshot => {
      const owed = [...debts.values()].filter((debt) => debt.untilMs > nowMs)
      return {
        unconfirmed: { count: unconfirmed.size, value: sum(unconfirmed.values()) },
        debts: { count: owed.length, value: sum(owed.map((debt) => debt.value)) }
      }
    })
  }
}

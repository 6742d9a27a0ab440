/**
 * The exposure book (./ExposureBook.ts) kept in the process, for one replica; with `REDIS_URL` set
 * ./RedisExposure.ts keeps it in Redis instead, so replicas share one book: one admission turn per
 * payer across them all, one list of a payer's unconfirmed settlements, and a debt found by one
 * refuses the payer on every other.
 */
import { Clock, Deferred, Effect, FiberId } from "effect"
import {
  type Debt,
  type ExposureBook,
  type ExposureSettings,
  type ExposureSnapshot,
  sum,
  topPayers,
  type Unconfirmed
} from "./ExposureBook.js"

interface Entry extends Unconfirmed {
  readonly payer: string
  readonly atRisk: boolean
  readonly untilMs: number
}

export const exposureBook = (settings: ExposureSettings): ExposureBook => {
  const turns = new Map<string, { readonly key: string; readonly done: Deferred.Deferred<void> }>()
  const entries = new Map<string, Map<string, Entry>>()
  const debts = new Map<string, Debt>()
  const payerOf = (payer: string) => payer.toLowerCase()

  // Entries end with their authorization even if no one closes them (a follow-up that never ended).
  const liveOf = (payer: string, nowMs: number) => {
    const mine = entries.get(payer) ?? new Map<string, Entry>()
    for (const [key, entry] of mine) if (entry.untilMs <= nowMs) mine.delete(key)
    if (mine.size === 0) entries.delete(payer)
    return [...mine.values()]
  }
  const allLive = (nowMs: number) => [...entries.keys()].flatMap((payer) => liveOf(payer, nowMs))

  const take = (payer: string, key: string, expiresAtMs: number): Effect.Effect<boolean> =>
    Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
      const held = turns.get(payerOf(payer))
      if (held === undefined) {
        turns.set(payerOf(payer), { key, done: Deferred.unsafeMake<void>(FiberId.none) })
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
      const held = turns.get(payerOf(payer))
      if (held === undefined || held.key !== key) return Effect.void
      turns.delete(payerOf(payer))
      return Deferred.succeed(held.done, undefined)
    })

  const atRiskValue = (list: ReadonlyArray<Entry>) => sum(list.filter((entry) => entry.atRisk).map((e) => e.value))

  return {
    take,
    free,
    unconfirmedOf: (payer) => Effect.map(Clock.currentTimeMillis, (nowMs) => liveOf(payerOf(payer), nowMs)),
    reserve: (payer, entry, expiresAtMs, early) =>
      Effect.map(Clock.currentTimeMillis, (nowMs) => {
        const atRisk = early && atRiskValue(allLive(nowMs)) + entry.value <= settings.unconfirmedCap &&
          atRiskValue(liveOf(payerOf(payer), nowMs)) + entry.value <= settings.payerCap
        const mine = entries.get(payerOf(payer)) ?? new Map<string, Entry>()
        mine.set(entry.key, { ...entry, payer: payerOf(payer), atRisk, untilMs: expiresAtMs })
        entries.set(payerOf(payer), mine)
        return atRisk
      }),
    close: (payer, key) =>
      Effect.sync(() => {
        const mine = entries.get(payerOf(payer))
        mine?.delete(key)
        if (mine?.size === 0) entries.delete(payerOf(payer))
      }),
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
      const atRisk = allLive(nowMs).filter((entry) => entry.atRisk)
      return {
        unconfirmed: { count: atRisk.length, value: sum(atRisk.map((entry) => entry.value)) },
        debts: { count: owed.length, value: sum(owed.map((debt) => debt.value)) },
        payers: topPayers(atRisk)
      }
    })
  }
}

/**
 * The risk broadcast settlement takes, kept bounded and in view (docs/payments.md#settlement-modes):
 * the calls admitted whose settlement is not confirmed yet, by payer. A payer may have several, as
 * long as its balance at the head covers all of them plus the next (the gate checks that in the same
 * simulation that verifies the payment, ./QuickVerify.ts); the value served before confirmation is
 * capped per payer and in total (past a cap a call settles `confirmed`). A payer's admissions take
 * turns (`take`/`free`, held for the few milliseconds of the check), so two calls of one payer never
 * both count on the same balance. Debts of payers whose settlement failed after they were served refuse
 * them until paid or until the refusal time has passed.
 *
 * This file is the book's contract and what both keepers share: ./Exposure.ts keeps it in the process
 * (one replica), ./RedisExposure.ts in Redis (`REDIS_URL`), so replicas share one book.
 */
import type { Effect } from "effect"
import { HEALTH_PAYERS } from "../../schema/Health.js"
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

/** An admitted call of a payer whose settlement is not confirmed yet (or not yet sent). */
export interface Unconfirmed {
  /** The authorization key (./Submission.ts), one per call. */
  readonly key: string
  /** The EIP-3009 nonce: USDC's `authorizationState(payer, nonce)` says whether it has landed. */
  readonly nonce: string
  readonly value: bigint
}

/** A payer's value served before confirmation, as health shows it. */
export interface PayerExposure {
  readonly payer: string
  readonly count: number
  readonly value: bigint
}

/** What the operator sees (health's `payments`). */
export interface ExposureSnapshot {
  readonly unconfirmed: { readonly count: number; readonly value: bigint }
  readonly debts: { readonly count: number; readonly value: bigint }
  /** The payers with the most value served before confirmation, most first, at most `HEALTH_PAYERS`. */
  readonly payers: ReadonlyArray<PayerExposure>
}

export const nothingUnconfirmed: ExposureSnapshot = {
  unconfirmed: { count: 0, value: 0n },
  debts: { count: 0, value: 0n },
  payers: []
}

/** The book, wherever it is kept; a book in Redis fails `LedgerUnavailable` when Redis does not answer. */
export interface ExposureBook {
  /**
   * Holds the payer's admission turn for the authorization `key`, waiting while another call of the
   * payer is being admitted, until `expiresAtMs` at most: false when the authorization ended while it
   * waited (the turn is not held).
   */
  readonly take: (payer: string, key: string, expiresAtMs: number) => Effect.Effect<boolean, LedgerUnavailable>
  /** Gives the payer's turn back if `key` holds it: the next waiting call goes on. */
  readonly free: (payer: string, key: string) => Effect.Effect<void>
  /** The payer's admitted calls not confirmed yet. */
  readonly unconfirmedOf: (payer: string) => Effect.Effect<ReadonlyArray<Unconfirmed>, LedgerUnavailable>
  /**
   * Records the call as the payer's (until `expiresAtMs`), and answers whether it may be served before
   * its settlement is confirmed: when `early` is asked, true unless that would pass the payer's or the
   * total cap. One step, so calls racing for the last room under the cap (on any replica) cannot both
   * get it.
   */
  readonly reserve: (
    payer: string,
    entry: Unconfirmed,
    expiresAtMs: number,
    early: boolean
  ) => Effect.Effect<boolean, LedgerUnavailable>
  /** The call is settled and confirmed, failed, or ended unsettled: no longer the payer's. */
  readonly close: (payer: string, key: string) => Effect.Effect<void>
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
  /** Value served before confirmation, all payers together. */
  readonly unconfirmedCap: bigint
  /** Value served before confirmation, one payer. */
  readonly payerCap: bigint
  readonly debtRefusalSec: number
}

/** The payers with the most value at risk, most first: health's bounded view. */
export const topPayers = (atRisk: Iterable<{ readonly payer: string; readonly value: bigint }>) => {
  const byPayer = new Map<string, PayerExposure>()
  for (const { payer, value } of atRisk) {
    const before = byPayer.get(payer)
    byPayer.set(payer, { payer, count: (before?.count ?? 0) + 1, value: (before?.value ?? 0n) + value })
  }
  return [...byPayer.values()]
    .sort((a, b) => (a.value === b.value ? a.payer.localeCompare(b.payer) : a.value > b.value ? -1 : 1))
    .slice(0, HEALTH_PAYERS)
}

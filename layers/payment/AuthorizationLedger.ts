/**
 * Which payment authorizations are in use, pending or spent: an authorization is the idempotency key
 * of the call it pays for. Two requests carrying the same authorization both pass verification
 * (nothing is on chain yet), so the gate claims the authorization here before the operation runs: the
 * first claim wins and the second request is refused. A settlement sent but not confirmed leaves the
 * authorization `pending` with its transaction: the same payment resent claims it again, and the gate
 * reconciles with that transaction instead of charging anew. A served (or possibly settled)
 * authorization is spent and stays refused until it expires on chain.
 *
 * The interface is a store's (claim, release, mark pending, spend, each with an expiry) so that a
 * shared store (Redis, ./RedisLedger.ts) can hold it across replicas; the in-memory layer serves one
 * process. Beside it, the ledger keeps the x402 library's pending-settlement store (by payment
 * signature) in the same place, so a retried settlement finds its transaction on any replica.
 */
import { InMemoryPendingSettlementStore, type PendingSettlementStore } from "@x402/core/facilitator"
import { Clock, Context, Effect, Layer, Schema } from "effect"

export class LedgerUnavailable extends Schema.TaggedError<LedgerUnavailable>()("LedgerUnavailable", {
  message: Schema.String
}) {}

/** What a claim found: nothing (the caller holds it now), a pending settlement (held now), or a holder. */
export type Claim =
  | { readonly _tag: "Fresh"; readonly token: string }
  | { readonly _tag: "Pending"; readonly token: string; readonly transaction: string }
  | { readonly _tag: "Taken" }

export interface AuthorizationLedgerShape {
  /** Claims `key` for one call until `expiresAtMs` (the authorization's `validBefore`). */
  readonly claim: (key: string, expiresAtMs: number) => Effect.Effect<Claim, LedgerUnavailable>
  /**
   * The call ended without settling: the authorization is as it was before the claim (free, or pending
   * on its transaction). Only the claim's holder releases it.
   */
  readonly release: (key: string, token: string) => Effect.Effect<void, LedgerUnavailable>
  /** The claim's settlement was sent as `transaction` and is not confirmed yet. */
  readonly pending: (
    key: string,
    token: string,
    transaction: string,
    expiresAtMs: number
  ) => Effect.Effect<void, LedgerUnavailable>
  /** The authorization paid for a served call (or may have been settled): refuse it until it expires. */
  readonly spend: (key: string, expiresAtMs: number) => Effect.Effect<void, LedgerUnavailable>
  /** The x402 library's settlements sent and not yet confirmed, by payment signature. */
  readonly settlements: PendingSettlementStore
}

/** How an entry is written, in memory and in Redis alike. */
export const Entry = {
  held: (token: string, transaction?: string) =>
    transaction === undefined ? `held:${token}` : `held:${token}:${transaction}`,
  pending: (transaction: string) => `pending:${transaction}`,
  spent: "spent",
  /** Whether `entry` is held by the claim `token`. */
  isHeldBy: (entry: string, token: string) => entry === `held:${token}` || entry.startsWith(`held:${token}:`),
  /** The transaction a held entry was pending on, if any. */
  heldOn: (entry: string, token: string): string | undefined =>
    entry.startsWith(`held:${token}:`) ? entry.slice(`held:${token}:`.length) : undefined
}

export class AuthorizationLedger extends Context.Tag("AuthorizationLedger")<
  AuthorizationLedger,
  AuthorizationLedgerShape
>() {
  /**
   * One process's ledger. Entries are dropped once their authorization has expired on chain, by the
   * fiber's `Clock` (so a test's clock decides when).
   */
  static readonly layerMemory = Layer.sync(AuthorizationLedger, () => {
    const entries = new Map<string, { readonly value: string; readonly expiresAtMs: number }>()
    let counter = 0
    let nextSweepMs = 0
    const sweep = (nowMs: number) => {
      if (nowMs < nextSweepMs) return
      nextSweepMs = nowMs + 60_000
      for (const [key, entry] of entries) if (entry.expiresAtMs <= nowMs) entries.delete(key)
    }
    const live = (key: string) =>
      Effect.map(Clock.currentTimeMillis, (nowMs) => {
        sweep(nowMs)
        const entry = entries.get(key)
        return entry !== undefined && entry.expiresAtMs > nowMs ? entry : undefined
      })
    return {
      claim: (key, expiresAtMs) =>
        Effect.map(live(key), (entry): Claim => {
          const token = `claim-${++counter}`
          if (entry === undefined) {
            entries.set(key, { value: Entry.held(token), expiresAtMs })
            return { _tag: "Fresh", token }
          }
          if (!entry.value.startsWith("pending:")) return { _tag: "Taken" }
          const transaction = entry.value.slice("pending:".length)
          entries.set(key, { value: Entry.held(token, transaction), expiresAtMs: entry.expiresAtMs })
          return { _tag: "Pending", token, transaction }
        }),
      release: (key, token) =>
        Effect.map(live(key), (entry) => {
          if (entry === undefined) return
          if (entry.value === Entry.held(token)) return void entries.delete(key)
          const transaction = Entry.heldOn(entry.value, token)
          if (transaction !== undefined) entries.set(key, { ...entry, value: Entry.pending(transaction) })
        }),
      pending: (key, token, transaction, expiresAtMs) =>
        Effect.map(live(key), (entry) => {
          if (entry !== undefined && Entry.isHeldBy(entry.value, token)) {
            entries.set(key, { value: Entry.pending(transaction), expiresAtMs })
          }
        }),
      spend: (key, expiresAtMs) => Effect.sync(() => void entries.set(key, { value: Entry.spent, expiresAtMs })),
      settlements: new InMemoryPendingSettlementStore()
    }
  })
}

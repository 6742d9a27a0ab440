/**
 * Which payment authorizations are in use or spent. Two requests carrying the same authorization both
 * pass verification (nothing is on chain yet), so the gate claims the authorization here before the
 * operation runs: the first claim wins, the second request is refused, and a spent authorization
 * stays refused until it expires on chain. The interface is a store's (claim, release, spend with an
 * expiry) so that a shared store (Redis) can hold it across replicas; the in-memory layer serves one
 * process.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"

export class LedgerUnavailable extends Schema.TaggedError<LedgerUnavailable>()("LedgerUnavailable", {
  message: Schema.String
}) {}

export interface AuthorizationLedgerShape {
  /**
   * Claims `key` for one call until `expiresAtMs` (the authorization's `validBefore`). Answers a claim
   * token, or `undefined` when the key is already claimed or spent.
   */
  readonly claim: (key: string, expiresAtMs: number) => Effect.Effect<string | undefined, LedgerUnavailable>
  /** The call ended without settling: the authorization may pay for another call. Only the claim's holder releases it. */
  readonly release: (key: string, token: string) => Effect.Effect<void, LedgerUnavailable>
  /** The authorization was (or may have been) settled: refuse it until it expires. */
  readonly spend: (key: string, expiresAtMs: number) => Effect.Effect<void, LedgerUnavailable>
}

export class AuthorizationLedger extends Context.Tag("AuthorizationLedger")<
  AuthorizationLedger,
  AuthorizationLedgerShape
>() {
  /**
   * One process's ledger. Entries are dropped once their authorization has expired on chain, by the
   * fiber's `Clock` (so a test's clock decides when).
   */
  static readonly memory = Layer.sync(AuthorizationLedger, () => {
    const entries = new Map<string, { readonly token: string; readonly expiresAtMs: number }>()
    let counter = 0
    let nextSweepMs = 0
    const sweep = (nowMs: number) => {
      if (nowMs < nextSweepMs) return
      nextSweepMs = nowMs + 60_000
      for (const [key, entry] of entries) if (entry.expiresAtMs <= nowMs) entries.delete(key)
    }
    return {
      claim: (key, expiresAtMs) =>
        Effect.map(Clock.currentTimeMillis, (nowMs) => {
          sweep(nowMs)
          const held = entries.get(key)
          if (held !== undefined && held.expiresAtMs > nowMs) return undefined
          const token = `claim-${++counter}`
          entries.set(key, { token, expiresAtMs })
          return token
        }),
      release: (key, token) =>
        Effect.sync(() => {
          if (entries.get(key)?.token === token) entries.delete(key)
        }),
      spend: (key, expiresAtMs) => Effect.sync(() => void entries.set(key, { token: "spent", expiresAtMs }))
    }
  })
}

/**
 * The authorization ledger in Redis, so that replicas behind one address refuse an authorization
 * another replica is using or has spent, and reconcile one whose settlement another replica sent. Each
 * step that reads and writes an entry (claim, release, mark pending) is one script, so no other claim
 * can slip in between; entries live as long as their authorization. The x402 library's pending
 * settlements (by signature) are kept here too. Commands fail fast instead of queueing while Redis is
 * away: the gate then answers `payment_unavailable`, never a charge without a lock. Keys start with
 * `REDIS_PREFIX`, as the quote store's and the exposure book's do: deployments sharing one Redis keep
 * apart, and an authorization one spent is not refused by the other.
 */
import { PENDING_SETTLEMENT_TTL_MS, type PendingSettlementStore } from "@x402/core/facilitator"
import { Clock, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { redisClient } from "../Redis.js"
import { AuthorizationLedger, type Claim, LedgerUnavailable } from "./AuthorizationLedger.js"

// Entries as ./AuthorizationLedger.ts `Entry` writes them: held:<token>[:<tx>], pending:<tx>, spent.
// ARGV: token, lifetime in ms. Answers "fresh", "taken", or the pending entry now held.
const CLAIM = `
local entry = redis.call("get", KEYS[1])
if not entry then
  redis.call("set", KEYS[1], "held:" .. ARGV[1], "PX", ARGV[2])
  return "fresh"
end
if string.sub(entry, 1, 8) ~= "pending:" then return "taken" end
redis.call("set", KEYS[1], "held:" .. ARGV[1] .. ":" .. string.sub(entry, 9), "KEEPTTL")
return entry`

// ARGV: token. Back to free, or to pending on the transaction the claim reconciled.
const RELEASE = `
local entry = redis.call("get", KEYS[1])
if not entry then return 0 end
local held = "held:" .. ARGV[1]
if entry == held then return redis.call("del", KEYS[1]) end
if string.sub(entry, 1, #held + 1) == held .. ":" then
  redis.call("set", KEYS[1], "pending:" .. string.sub(entry, #held + 2), "KEEPTTL")
end
return 0`

// ARGV: token, transaction, lifetime in ms.
const PENDING = `
local entry = redis.call("get", KEYS[1])
local held = "held:" .. ARGV[1]
if entry == held or (entry and string.sub(entry, 1, #held + 1) == held .. ":") then
  redis.call("set", KEYS[1], "pending:" .. ARGV[2], "PX", ARGV[3])
end
return 0`

const failed = (action: string) => (cause: unknown) =>
  new LedgerUnavailable({
    message: `authorization ledger (Redis) failed to ${action}: ${
      cause instanceof Error ? cause.message : String(cause)
    }`
  })

/** The authorization's remaining lifetime by the fiber's `Clock`; Redis then expires the key on its own. */
const remainingMs = (expiresAtMs: number) =>
  Effect.map(Clock.currentTimeMillis, (nowMs) => Math.max(1, Math.ceil(expiresAtMs - nowMs)))

export const redisLedger = (url: string, prefix: string) =>
  Layer.scoped(
    AuthorizationLedger,
    Effect.gen(function*() {
      const redis = yield* redisClient(url, failed("connect"))
      const authorizations = `${prefix}x402:authorization:`
      const pendingSettlements = `${prefix}x402:pending-settlement:`
      const settlements: PendingSettlementStore = {
        get: async (signature) => (await redis.get(pendingSettlements + signature)) ?? undefined,
        set: async (signature, transaction) =>
          void (await redis.set(pendingSettlements + signature, transaction, "PX", PENDING_SETTLEMENT_TTL_MS)),
        delete: async (signature) => void (await redis.del(pendingSettlements + signature))
      }
      return {
        claim: (key, expiresAtMs) =>
          Effect.flatMap(remainingMs(expiresAtMs), (lifetimeMs) =>
            Effect.tryPromise({
              try: async (): Promise<Claim> => {
                const token = randomUUID()
                const found = String(await redis.eval(CLAIM, 1, authorizations + key, token, lifetimeMs))
                if (found === "fresh") return { _tag: "Fresh", token }
                if (found === "taken") return { _tag: "Taken" }
                return { _tag: "Pending", token, transaction: found.slice("pending:".length) }
              },
              catch: failed("claim")
            })),
        release: (key, token) =>
          Effect.tryPromise({
            try: () => redis.eval(RELEASE, 1, authorizations + key, token),
            catch: failed("release")
          }).pipe(Effect.asVoid),
        pending: (key, token, transaction, expiresAtMs) =>
          Effect.flatMap(remainingMs(expiresAtMs), (lifetimeMs) =>
            Effect.tryPromise({
              try: () => redis.eval(PENDING, 1, authorizations + key, token, transaction, lifetimeMs),
              catch: failed("mark pending")
            })).pipe(Effect.asVoid),
        spend: (key, expiresAtMs) =>
          Effect.flatMap(remainingMs(expiresAtMs), (lifetimeMs) =>
            Effect.tryPromise({
              try: () => redis.set(authorizations + key, "spent", "PX", lifetimeMs),
              catch: failed("spend")
            })).pipe(Effect.asVoid),
        settlements
      }
    })
  )

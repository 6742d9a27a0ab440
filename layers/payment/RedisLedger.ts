/**
 * The authorization ledger in Redis, so that replicas behind one address refuse an authorization
 * another replica is using or has spent. A claim is `SET NX` with the authorization's remaining
 * lifetime; a release deletes the key only while it still holds this claim's token (one script, so no
 * other claim can slip in between the read and the delete). Commands fail fast instead of queueing
 * while Redis is away: the gate then answers `payment_unavailable`, never a charge without a lock.
 */
import { Clock, Effect, Layer } from "effect"
import { Redis } from "ioredis"
import { randomUUID } from "node:crypto"
import { AuthorizationLedger, LedgerUnavailable } from "./AuthorizationLedger.js"

const RELEASE_IF_HELD =
  `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

const PREFIX = "x402:authorization:"

const failed = (action: string) => (cause: unknown) =>
  new LedgerUnavailable({
    message: `authorization ledger (Redis) failed to ${action}: ${
      cause instanceof Error ? cause.message : String(cause)
    }`
  })

/** The authorization's remaining lifetime by the fiber's `Clock`; Redis then expires the key on its own. */
const remainingMs = (expiresAtMs: number) =>
  Effect.map(Clock.currentTimeMillis, (nowMs) => Math.max(1, Math.ceil(expiresAtMs - nowMs)))

export const redisLedger = (url: string) =>
  Layer.scoped(
    AuthorizationLedger,
    Effect.gen(function*() {
      const redis = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const client = new Redis(url, {
              lazyConnect: true,
              enableOfflineQueue: false,
              maxRetriesPerRequest: 1,
              connectTimeout: 2_000,
              commandTimeout: 2_000
            })
            // Failures reach the gate through the commands that fail; the event would only be noise.
            client.on("error", () => undefined)
            try {
              await client.connect()
              await client.ping()
              return client
            } catch (error) {
              client.disconnect()
              throw error
            }
          },
          catch: failed("connect")
        }),
        (client) => Effect.promise(() => client.quit().catch(() => "closed"))
      )
      return {
        claim: (key, expiresAtMs) =>
          Effect.flatMap(remainingMs(expiresAtMs), (lifetimeMs) =>
            Effect.tryPromise({
              try: async () => {
                const token = randomUUID()
                const set = await redis.set(PREFIX + key, token, "PX", lifetimeMs, "NX")
                return set === "OK" ? token : undefined
              },
              catch: failed("claim")
            })),
        release: (key, token) =>
          Effect.tryPromise({
            try: () => redis.eval(RELEASE_IF_HELD, 1, PREFIX + key, token),
            catch: failed("release")
          })
            .pipe(Effect.asVoid),
        spend: (key, expiresAtMs) =>
          Effect.flatMap(remainingMs(expiresAtMs), (lifetimeMs) =>
            Effect.tryPromise({
              try: () => redis.set(PREFIX + key, "spent", "PX", lifetimeMs),
              catch: failed("spend")
            })).pipe(Effect.asVoid)
      }
    })
  )

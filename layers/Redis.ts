/**
 * The one way this service connects to Redis (the quote store and the payment ledger alike): a scoped
 * client that is connected and answering before the layer is built, so a wrong `REDIS_URL` fails
 * start-up rather than the first call. Commands fail fast instead of queueing while Redis is away:
 * the caller decides what an unreachable store means (the gate refuses payment, the quote store fails
 * the call), never a state change that silently waits for a reconnect.
 */
import { Effect } from "effect"
import { Redis } from "ioredis"

/** A connected client for `url`, closed with the scope; `failed` turns a connection error into the caller's. */
export const redisClient = <E>(url: string, failed: (cause: unknown) => E) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const client = new Redis(url, {
          lazyConnect: true,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 2_000,
          commandTimeout: 2_000
        })
        // Failures reach callers through the commands that fail; the event would only be noise.
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
      catch: failed
    }),
    (client) => Effect.promise(() => client.quit().catch(() => "closed"))
  )

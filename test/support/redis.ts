/**
 * The machine's Redis for tests (`REDIS_URL`, 127.0.0.1:6379 by default). It is shared with other
 * test runs: a test writes only under a key prefix of its own and deletes only those keys, never the
 * whole database.
 */
import { Redis } from "ioredis"
import { createConnection } from "node:net"

export const redisUrl = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379"

export const redisUp = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl)
  const socket = createConnection({ host: hostname, port: Number(port || 6379) })
  socket.once("connect", () => (socket.destroy(), resolve(true)))
  socket.once("error", () => resolve(false))
})
if (!redisUp) console.warn(`no Redis at ${redisUrl}: the Redis cases are skipped`)

/** Deletes the keys under `prefix` (this test's own), and only those. */
export const dropKeys = async (prefix: string) => {
  if (!redisUp) return
  const redis = new Redis(redisUrl)
  try {
    let cursor = "0"
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500)
      if (keys.length > 0) await redis.del(...keys)
      cursor = next
    } while (cursor !== "0")
  } finally {
    redis.disconnect()
  }
}

/**
 * `npm run cluster`: the embedded devnet, `REPLICAS` (default 2) replicas of the service sharing the
 * Redis at `REDIS_URL` (default 127.0.0.1:6379), behind HAProxy round-robin; prints the one base URL.
 * `PORT` is the balancer's port (default 8402). Ctrl-C stops the replicas, the balancer and the devnet
 * and deletes this run's Redis keys (their prefix is the run's own; nothing else is touched).
 *
 *   REPLICAS=3 npm run cluster
 *   DEMO_URL=http://127.0.0.1:8402 MANIFEST_PATH=<printed path> npm run demo
 */
import { Effect, ManagedRuntime } from "effect"
import { Redis } from "ioredis"
import { randomUUID } from "node:crypto"
import { devnetPaymentSettings } from "../devnet/accounts.js"
import { Devnet } from "../devnet/Devnet.js"
import { devnetSettlementKeys, haproxyMissing, startCluster } from "./cluster/Cluster.js"

const missing = haproxyMissing()
if (missing !== undefined) {
  console.error(missing)
  process.exit(1)
}
const replicas = Number(process.env["REPLICAS"] ?? "2")
const redisUrl = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379"
const redisPrefix = `cluster:${randomUUID()}:`

const devnet = ManagedRuntime.make(Devnet.layerConfig)
const { manifest, manifestPath } = await devnet.runPromise(Devnet)
const cluster = await startCluster({
  replicas,
  rpcUrl: manifest.rpcUrl,
  manifestPath,
  redisUrl,
  redisPrefix,
  settings: { PAY_TO: devnetPaymentSettings()["PAY_TO"]! },
  settlementKeys: devnetSettlementKeys(manifest),
  port: Number(process.env["PORT"] ?? "8402")
}).catch(async (error) => {
  await devnet.dispose()
  throw error
})

console.log([
  "",
  `  base URL   ${cluster.baseUrl}   (HAProxy, round-robin over ${replicas} replicas; X-Replica names the one that answered)`,
  ...cluster.replicas.map((replica) => `  ${replica.name}  ${replica.url}`),
  `  Redis      ${redisUrl}, keys under ${redisPrefix}`,
  `  devnet     ${manifest.rpcUrl}, manifest ${manifestPath}`,
  `  stats      ${cluster.statsUrl}`,
  "",
  "  Ctrl-C to stop.",
  ""
].join("\n"))

const shutdown = async () => {
  await cluster.close()
  const redis = new Redis(redisUrl)
  const keys = await redis.keys(`${redisPrefix}*`)
  if (keys.length > 0) await redis.del(...keys)
  redis.disconnect()
  await devnet.dispose()
  process.exit(0)
}
process.once("SIGINT", () => void shutdown())
process.once("SIGTERM", () => void shutdown())
await Effect.runPromise(Effect.never)

/**
 * A cluster for one test file: a private devnet (the tests move prices and the agent is the manifest's
 * first account), two replicas of `src/main.ts` on the machine's Redis under a key prefix of the
 * file's own (deleted after), HAProxy in front; and the demo's agent and wallet on it.
 */
import { Effect } from "effect"
import { Redis } from "ioredis"
import { randomUUID } from "node:crypto"
import { rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import type { QuoteLookup } from "../../layers/QuoteStore.js"
import { redisQuoteStore } from "../../layers/RedisQuoteStore.js"
import { type Cluster, devnetSettlementKeys, startCluster } from "../../scripts/cluster/Cluster.js"
import { type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { forFile } from "../support/forFile.js"
import { dropKeys, redisUrl } from "../support/redis.js"

export interface ClusterFixture {
  readonly devnet: PrivateDevnet
  readonly cluster: Cluster
  readonly manifestPath: string
  readonly payTo: `0x${string}`
  /** The stored quote as the replicas see it in Redis. */
  readonly stored: (quoteId: string) => Promise<QuoteLookup>
  readonly close: () => Promise<void>
}

const start = async (): Promise<ClusterFixture> => {
  const devnet = await startDevnet()
  const manifestPath = join(tmpdir(), `cluster-manifest-${randomUUID()}.json`)
  writeFileSync(manifestPath, JSON.stringify(devnet.manifest))
  const payTo = privateKeyToAccount(generatePrivateKey()).address
  const redisPrefix = `test:cluster:${randomUUID()}:`
  const cluster = await startCluster({
    replicas: 2,
    rpcUrl: devnet.manifest.rpcUrl,
    manifestPath,
    redisUrl,
    redisPrefix,
    // The background scan would only compete for the two cores with the calls under test. No VENUES_FILE:
    // the replicas read this devnet's venues from its manifest.
    settings: { PAY_TO: payTo, SAFETY_SCAN: "false", DRAIN_MS: "1500" },
    settlementKeys: devnetSettlementKeys(devnet.manifest)
  }).catch(async (error) => {
    await devnet.stop()
    throw error
  })
  const reader = new Redis(redisUrl)
  const store = redisQuoteStore(reader, redisPrefix, 3_600_000)
  return {
    devnet,
    cluster,
    manifestPath,
    payTo,
    stored: (quoteId) => Effect.runPromise(store.get(quoteId)),
    close: async () => {
      reader.disconnect()
      await cluster.close()
      await devnet.stop()
      await dropKeys(redisPrefix)
      rmSync(manifestPath, { force: true })
    }
  }
}

export const clusterForFile = (): ClusterFixture => forFile(start, (fixture) => fixture.close(), 240_000)

/**
 * `npm run bench -- cluster`: the service as `npm run cluster` runs it (replicas of `src/main.ts` on one
 * devnet and the machine's Redis, HAProxy round-robin in front) at 1, 2 and 4 replicas:
 *
 * - free path: autocannon, `CLUSTER_CONNECTIONS` (32) keep-alive connections for `CLUSTER_SECONDS` (5)
 *   on `GET /health` and on an unpaid search (the gate's 402 offer);
 * - paid path: `CLUSTER_PAID` (60) searches, each paid with its own x402 authorization signed
 *   beforehand, 8 at a time: verified, locked in the Redis ledger, answered and settled on chain; a
 *   call that got no answer is looked up on chain afterwards (was it charged anyway?);
 * - what Redis adds per quote-store operation against the in-memory store (put, get, update), one at a
 *   time from one process.
 *
 * Every process shares the machine's cores: with two cores, more replicas add no CPU, so the figures
 * say what replicas cost and what they do not buy on such a machine.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http"
import autocannon from "autocannon"
import { Effect } from "effect"
import { Redis } from "ioredis"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Address, createPublicClient, type Hex, http, parseAbi } from "viem"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { QuoteStore, type QuoteStoreShape } from "../../layers/QuoteStore.js"
import { redisQuoteStore } from "../../layers/RedisQuoteStore.js"
import { record } from "../../test/support/quoteRecord.js"
import { dropKeys } from "../../test/support/redis.js"
import { pay, USDC } from "../../test/support/x402.js"
import { devnetSettlementKeys, startCluster } from "../cluster/Cluster.js"
import { walletFrom } from "../demo/wallet.js"
import { benchDevnet } from "./lib/devnet.js"
import { figure, ms, percentile } from "./lib/report.js"

const CONNECTIONS = Number(process.env["CLUSTER_CONNECTIONS"] ?? 32)
const SECONDS = Number(process.env["CLUSTER_SECONDS"] ?? 5)
const PAID = Number(process.env["CLUSTER_PAID"] ?? 60)
const REDIS_URL = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379"
const authorizationStateAbi = parseAbi(["function authorizationState(address, bytes32) view returns (bool)"])
const work = mkdtempSync(join(tmpdir(), "bench-cluster-"))
const prefix = `bench:cluster:${randomUUID()}:`

const load = async (url: string, method: "GET" | "POST", body?: string) => {
  const result = await autocannon({
    url,
    method,
    connections: CONNECTIONS,
    duration: SECONDS,
    ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } })
  })
  return `${Math.round(result.requests.total / result.duration)}/s, p50 ${ms(result.latency.p50)}, p99 ${
    ms(result.latency.p99)
  } (${result.non2xx - (method === "POST" ? result.requests.total : 0) + result.errors} unexpected)`
}

const searchBody = JSON.stringify({ query: "WETH", limit: 3 })
const search = (baseUrl: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: searchBody
  })

/**
 * Of the calls that got no answer, how many were charged anyway: their authorization used on chain once
 * any settlement still under way has had time to land (never charged without an answer is the rule).
 */
const chargedOf = async (rpcUrl: string, dropped: ReadonlyArray<Awaited<ReturnType<typeof pay>>>) => {
  if (dropped.length === 0) return ""
  await new Promise((wake) => setTimeout(wake, 25_000))
  const node = createPublicClient({ transport: http(rpcUrl), cacheTime: 0 })
  const used = await Promise.all(dropped.map(({ payload }) => {
    const { from, nonce } = payload.payload["authorization"] as { from: Address; nonce: Hex }
    return node.readContract({
      address: USDC,
      abi: authorizationStateAbi,
      functionName: "authorizationState",
      args: [from, nonce]
    })
  }))
  return `, ${used.filter(Boolean).length} of them charged`
}

const paidPath = async (baseUrl: string, manifestPath: string, rpcUrl: string) => {
  const wallet = walletFrom(manifestPath)
  const offer = decodePaymentRequiredHeader((await search(baseUrl)).headers.get("payment-required")!)
  const headers = await Promise.all(Array.from({ length: PAID }, () => pay(wallet.account, offer)))
  const latencies: Array<number> = []
  let ok = 0
  let next = 0
  const refused = new Map<number, number>()
  const dropped: Array<Awaited<ReturnType<typeof pay>>> = []
  const started = performance.now()
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < headers.length) {
      const payment = headers[next++]!
      const sent = performance.now()
      // A call the balancer or a replica dropped counts as not settled, with its reason.
      const response = await search(baseUrl, { "payment-signature": payment.header }).catch(() => undefined)
      await response?.arrayBuffer()
      latencies.push(performance.now() - sent)
      const settled = response?.status === 200 && response.headers.get("payment-response") !== null
      if (settled) ok++
      else refused.set(response?.status ?? 0, (refused.get(response?.status ?? 0) ?? 0) + 1)
      if (response === undefined) dropped.push(payment)
    }
  }))
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return `${(ok / seconds).toFixed(1)}/s, p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (${
    PAID - ok
  } not settled${
    refused.size === 0 ? "" : `: ${[...refused].map(([status, n]) => `${n} × ${status || "no answer"}`).join(", ")}`
  }${await chargedOf(rpcUrl, dropped)})`
}

const main = async () => {
  const devnet = await benchDevnet("cluster")
  const manifestPath = join(work, "manifest.json")
  writeFileSync(manifestPath, JSON.stringify(devnet.manifest))
  try {
    console.log(
      `   ${cpus().length} cores; ${CONNECTIONS} connections, ${SECONDS} s per free figure, ${PAID} paid calls`
    )
    // The payer's ERC-20 USDC for the fees (the devnet mints it from native value).
    await walletFrom(manifestPath).depositUsdc(USDC, 100n)
    for (const replicas of [1, 2, 4]) {
      const cluster = await startCluster({
        replicas,
        rpcUrl: devnet.manifest.rpcUrl,
        manifestPath,
        redisUrl: REDIS_URL,
        redisPrefix: `${prefix}${replicas}:`,
        settings: { PAY_TO: devnetPaymentSettings()["PAY_TO"]!, SAFETY_SCAN: "false" },
        settlementKeys: devnetSettlementKeys(devnet.manifest)
      })
      try {
        figure(`${replicas} replica(s): GET /health`, await load(`${cluster.baseUrl}/health`, "GET"))
        figure(
          `${replicas} replica(s): unpaid search (402)`,
          await load(`${cluster.baseUrl}/trade/v1/search`, "POST", searchBody)
        )
        figure(
          `${replicas} replica(s): paid search (settled)`,
          await paidPath(cluster.baseUrl, manifestPath, devnet.manifest.rpcUrl)
        )
      } finally {
        await cluster.close()
      }
    }
    await storeCost()
  } finally {
    await devnet.stop()
    await dropKeys(prefix)
    rmSync(work, { recursive: true, force: true })
  }
}

/** µs per quote-store operation, one at a time: memory against Redis. */
const storeCost = async () => {
  const redis = new Redis(REDIS_URL)
  const stores: ReadonlyArray<readonly [string, QuoteStoreShape]> = [
    ["memory", Effect.runSync(QuoteStore.make(3_600_000))],
    ["Redis", redisQuoteStore(redis, prefix, 3_600_000)]
  ]
  const runs = 2_000
  for (const [name, store] of stores) {
    const ids = Array.from({ length: runs }, (_, i) => `q_bench_${i}`)
    const time = async (label: string, op: (id: string) => Effect.Effect<unknown, unknown>) => {
      const started = performance.now()
      for (const id of ids) await Effect.runPromise(op(id))
      figure(`quote store, ${name}: ${label}`, `${((performance.now() - started) * 1000 / runs).toFixed(0)} µs/op`)
    }
    await time("put", (id) => store.put(record(id, Date.now() + 120_000)))
    await time("get", (id) => store.get(id))
    await time("update (count an attempt)", (id) =>
      store.update(id, ({ record }) => [undefined, {
        ...record,
        attempts: { ...record.attempts, swapFailures: record.attempts.swapFailures + 1 }
      }]))
  }
  redis.disconnect()
}

await main()

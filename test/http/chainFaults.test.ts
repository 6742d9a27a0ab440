/**
 * Health and answers when the chain misbehaves, on private devnets (issue 8): a restart on an idle
 * chain answers search without a new block; a killed anvil turns health to 503 and every answer that
 * needs the chain into 503 `rpc_unavailable`, and the service recovers by itself when a node comes back
 * on the same URL; health under load costs no chain call per request (concurrent calls share one head
 * read). Each wait polls for what a user would see, a bounded number of times; how soon each happens
 * is a figure for `npm run bench`, not a threshold here.
 */
import { Effect, Exit, Layer, Option, Scope } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAnvil } from "../../devnet/anvilProcess.js"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { Deployment } from "../../layers/Deployment.js"
import { clientsFor, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"
import { startRpcCounter } from "../support/rpcCounter.js"
import { untilAsync } from "../support/until.js"

let devnet: PrivateDevnet
const revived = Effect.runSync(Scope.make())
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(revived, Exit.void))
  await devnet.stop()
})

const deployment = () => Layer.succeed(Deployment, Deployment.make(devnet.manifest))
// Search's price and payment are the payment tests' subject (test/payment/http*.test.ts); free here.
const freeSearch = { PRICE_SEARCH: "0" }

const search = (server: TestServer, query = "WETH") =>
  fetch(`${server.baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, limit: 1 })
  })

const healthStatus = async (server: TestServer) => (await readJson(await fetch(`${server.baseUrl}/health`))).status

const healthSays = (server: TestServer, status: string) =>
  untilAsync(`health to say ${status}`, async () => (await healthStatus(server)) === status, { attempts: 300 })

describe("a restart on an idle chain", () => {
  it("answers search without a new block, and health agrees", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "arc-restart-"))
    const chain = clientsFor(devnet.manifest).public
    const first = await startTestServer(deployment(), { ...freeSearch, DATA_DIR: dataDir })
    await healthSays(first, "ok")
    await first.close() // writes the checkpoint
    const head = await chain.getBlockNumber()

    const second = await startTestServer(deployment(), { ...freeSearch, DATA_DIR: dataDir })
    try {
      await untilAsync("search to answer after the restart", async () => (await search(second)).status === 200)
      const health = await readJson(await fetch(`${second.baseUrl}/health`))
      expect(health).toMatchObject({ status: "ok", headBlock: Number(head), indexedBlock: Number(head) })
      expect((await readJson(await search(second))).block).toBe(Number(head))
      expect(await chain.getBlockNumber()).toBe(head)
    } finally {
      await second.close()
    }
  })
})

describe("a chain that dies and comes back", () => {
  it("health 503, rpc_unavailable with retryAfterSec, then ok again without a restart", async () => {
    const server = await startTestServer(deployment(), freeSearch)
    try {
      await healthSays(server, "ok")
      // Keep the chain's state to bring the same chain back on the same port later.
      const dump = await clientsFor(devnet.manifest).test.dumpState()
      const stateFile = join(mkdtempSync(join(tmpdir(), "arc-revive-")), "state.json")
      writeFileSync(stateFile, gunzipSync(Buffer.from(dump.slice(2), "hex")))

      const { pid, port } = devnet.handle.anvil
      process.kill(-pid, "SIGKILL") // anvil and its guard, as a crash would
      await untilAsync("health to answer 503", async () => (await fetch(`${server.baseUrl}/health`)).status === 503)
      const health = await fetch(`${server.baseUrl}/health`)
      expect(health.headers.get("x-request-id")).toMatch(/^req_/)
      const report = await readJson(health)
      expect(report).toMatchObject({
        status: "down",
        rpc: { reachable: false },
        error: { code: "rpc_unavailable" },
        next: "retry",
        retryAfterSec: 2
      })
      expect(report.indexAgeSec).toBeGreaterThan(5)
      expect(report.reason).toContain("not answering")

      const refused = await search(server)
      expect(refused.status).toBe(503)
      expect(refused.headers.get("retry-after")).toBe("2")
      expect(await readJson(refused)).toMatchObject({
        error: { code: "rpc_unavailable" },
        next: "retry",
        retryAfterSec: 2
      })

      await Effect.runPromise(
        startAnvil({
          host: "127.0.0.1",
          port,
          chainId: devnetDefaults.chainId,
          hardfork: devnetDefaults.hardfork,
          blockTime: Option.none(),
          loadState: Option.some(stateFile),
          genesisTimestamp: Option.none(),
          keptStates: Option.none()
        }).pipe(Scope.extend(revived))
      )
      await healthSays(server, "ok")
      expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)
      expect((await search(server)).status).toBe(200)
    } finally {
      await server.close()
    }
  })
})

describe("health under load", () => {
  // A quiet private chain (no block is mined during the bursts) and a head poll that does not come
  // round during them: every call the counter sees is a health call's head read.
  it("costs no chain call per request: 1,000 health checks in bursts of 20 share a head read per burst", async () => {
    const quiet = await startDevnet()
    const counter = await startRpcCounter(quiet.manifest.rpcUrl)
    const server = await startTestServer(
      Layer.succeed(Deployment, { ...Deployment.make(quiet.manifest), rpcUrl: counter.url }),
      { INDEXER_POLL_MS: "3600000" }
    )
    try {
      await healthSays(server, "ok")
      const before = counter.calls()
      for (let round = 0; round < 50; round++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.baseUrl}/health`)))
        expect(answers.every((answer) => answer.status === 200)).toBe(true)
        await Promise.all(answers.map((answer) => answer.arrayBuffer()))
      }
      const calls = counter.calls() - before
      // The head each health call reads on arrival is shared by every call that arrives while one read
      // is in flight, so a burst of 20 costs a few reads, never 20 (1,000 in all).
      expect(calls).toBeGreaterThan(0)
      expect(calls).toBeLessThan(250)
    } finally {
      await server.close()
      await counter.close()
      await quiet.stop()
    }
  })
})

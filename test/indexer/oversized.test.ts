/**
 * Answers over viem's response cap (issue 37), from `startOversizingNode`, a named fake in front of a
 * private devnet: one oversized call of a batch fails alone while its neighbours answer; a service whose
 * node answers every block with its transactions, every block's logs for more than two topics and every
 * log range of more than four blocks over the cap still catches up and follows the chain (by smaller
 * ranges, halves of the topics and senders one by one), without its stream failing once and without a
 * single 503 to the quotes and searches asked meanwhile.
 */
import { HttpServer } from "@effect/platform"
import { Effect, Either, Layer, ManagedRuntime, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { Hex, RpcHex } from "../../schema/Chain.js"
import { AppServices } from "../../src/App.js"
import { HttpAppLive, nodeServerOn } from "../../src/http/Server.js"
import { isTooMuch } from "../../src/indexer/ChainSource.js"
import { Indexer } from "../../src/indexer/Indexer.js"
import { clientsFor, manifestAccount, type PrivateDevnet, startDevnet, tokenAddress } from "../support/devnet.js"
import { type OversizingNode, startOversizingNode } from "../support/fakes.js"
import { readJson } from "../support/http.js"
import { testSettings } from "../support/services.js"
import { untilAsync } from "../support/until.js"
import { marketMaker } from "./market.js"

let devnet: PrivateDevnet
let node: OversizingNode
const marker = "0x00000000000000000000000000000000000000a1"

beforeAll(async () => {
  devnet = await startDevnet()
  node = await startOversizingNode(devnet.manifest.rpcUrl, (method, params) => {
    if (method === "eth_getCode") return params[0] === marker
    if (method.startsWith("eth_getBlockBy")) return params[1] === true
    if (method !== "eth_getLogs") return false
    const [filter] = params as [{ blockHash?: string; fromBlock?: string; toBlock?: string; topics: [Array<string>] }]
    return filter.blockHash !== undefined
      ? filter.topics[0].length > 2
      : Number(filter.toBlock) - Number(filter.fromBlock) + 1 > 4
  })
})
afterAll(async () => {
  await node?.close()
  await devnet?.stop()
})

describe("a batch with one oversized answer", () => {
  it("answers the other calls; the oversized one fails alone, as too much", async () => {
    const rpc = ChainRpc.make({ rpcUrl: node.url, chainId: devnet.manifest.chainId })
    const direct = clientsFor(devnet.manifest).public
    const [gasPrice, chainId, code, head] = await Effect.runPromise(Effect.all([
      rpc.use("getGasPrice", (client) => client.getGasPrice()),
      rpc.read(RpcHex, "eth_chainId"),
      Effect.either(rpc.read(Hex, "eth_getCode", [marker, "latest"])),
      rpc.read(Schema.Struct({ number: RpcHex }), "eth_getBlockByNumber", ["latest", false])
    ], { concurrency: "unbounded" }))
    expect(node.oversizedInBatch()).toBeGreaterThanOrEqual(1)
    expect(gasPrice).toBe(await direct.getGasPrice())
    expect(Number(chainId)).toBe(devnet.manifest.chainId)
    expect(Number(head.number)).toBe(Number(await direct.getBlockNumber()))
    expect(Either.isLeft(code) && isTooMuch(code.left)).toBe(true)
  })
})

describe("a service whose node answers blocks and logs over the cap", () => {
  it("catches up and follows by smaller reads, its stream never failing, no request answered 503", async () => {
    const layer = HttpAppLive.pipe(
      Layer.provideMerge(
        AppServices(Layer.succeed(Deployment, Deployment.make({ ...devnet.manifest, rpcUrl: node.url })))
      ),
      Layer.provideMerge(nodeServerOn({ port: 0, host: "127.0.0.1" })),
      // The freshness rule answers 503 while the index trails the head by seconds, which a loaded machine
      // can make it do whatever the node answers (test/freshness/ holds that rule): waits
      // long enough here that a 503 can only be a chain call failing.
      Layer.provide(testSettings({
        WS_URL: "off",
        PRICE_SEARCH: "0",
        PRICE_QUOTE: "0",
        INDEX_MAX_AGE_SEC: "300",
        HEAD_WAIT_MS: "120000"
      }))
    )
    const runtime = ManagedRuntime.make(layer)
    try {
      const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
      const baseUrl = `http://127.0.0.1:${address._tag === "TcpAddress" ? address.port : 0}`
      const chain = clientsFor(devnet.manifest).public
      const indexedUpTo = (block: bigint) =>
        untilAsync(`the index at block ${block}`, async () => {
          const health = await readJson(await fetch(`${baseUrl}/health`))
          return health.indexedBlock >= Number(block)
        }, { attempts: 600 })
      await indexedUpTo(await chain.getBlockNumber())

      const statuses: Array<number> = []
      let trading = true
      const asking = (async () => {
        const body = {
          sell: tokenAddress(devnet.manifest, "USDC"),
          buy: tokenAddress(devnet.manifest, "WETH"),
          amount: "10",
          taker: manifestAccount(devnet.manifest, 1).address
        }
        while (trading) {
          for (const [path, asked] of [["quote", body], ["search", { query: "OVR", limit: 1 }]] as const) {
            const answer = await fetch(`${baseUrl}/trade/v1/${path}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(asked)
            })
            statuses.push(answer.status)
            await answer.arrayBuffer()
          }
        }
      })()
      const maker = marketMaker(devnet.manifest, manifestAccount(devnet.manifest, 7))
      const listed = await maker.listToken("Oversized Answers", "OVR")
      for (const usdc of [20n, 30n, 40n]) await maker.buy(listed.pair, usdc * 10n ** 6n)
      await indexedUpTo(await chain.getBlockNumber())
      trading = false
      await asking

      const found = await readJson(
        await fetch(`${baseUrl}/trade/v1/search`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "OVR", limit: 1 })
        })
      )
      expect(found.results[0].address.toLowerCase()).toBe(listed.token.toLowerCase())
      const progress = await runtime.runPromise(Effect.flatMap(Indexer, (indexer) => indexer.progress))
      expect(progress.failures).toBe(0)
      expect(progress.rollbacks).toBe(0)
      expect(node.oversized()).toBeGreaterThan(0)
      expect(statuses.length).toBeGreaterThan(0)
      expect(statuses.filter((status) => status === 503)).toEqual([])
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0)
    } finally {
      await runtime.dispose()
    }
  })
})

/**
 * What a block wrote, asked of a real anvil: by parity replay (`trace_replayBlockTransactions`), which
 * anvil answers without the lock its prestate tracer can hang on while a block is mined; and, from a
 * node without the `trace_*` namespace, by the prestate tracer, with the same answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { blockWrites } from "../../src/safety/BlockWrites.js"
import { automined, STORES_CALLER } from "../support/automined.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"

const scope = Effect.runSync(Scope.make())
let counter: RpcCounter
let withoutTrace: Server
let refused = 0
const methods: Array<string> = []
let rpc: ChainRpc["Type"]
let contract: string
let written: number

/**
 * FAKE: a node without the `trace_*` namespace (geth), the one fault a real anvil cannot be made to
 * show: it answers those calls "method not found" and forwards every other call to anvil.
 */
interface Call {
  readonly id: unknown
  readonly method: string
}

const nodeWithoutTrace = (target: string) =>
  new Promise<Server>((resolve) => {
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", async () => {
        const sent = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Call | Array<Call>
        const calls = Array.isArray(sent) ? sent : [sent]
        const refusedOf = (call: Call) => {
          refused++
          const error = { code: -32601, message: `the method ${call.method} does not exist/is not available` }
          return { jsonrpc: "2.0", id: call.id, error }
        }
        const forwarded = calls.filter((call) => !call.method.startsWith("trace_"))
        const answers = forwarded.length === 0 ? [] : (await (await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(forwarded)
        })).json()) as Array<{ id: unknown }>
        const answered = calls.map((call) =>
          call.method.startsWith("trace_") ? refusedOf(call) : answers.find((answer) => answer.id === call.id)
        )
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify(Array.isArray(sent) ? answered : answered[0]))
      })
    })
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

const rpcAt = (rpcUrl: string) => ChainRpc.make({ rpcUrl, chainId: devnetDefaults.chainId })

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  counter = await startRpcCounter(anvil.rpcUrl, (call) => void methods.push(call.method))
  withoutTrace = await nodeWithoutTrace(anvil.rpcUrl)
  rpc = rpcAt(counter.url)
  const deployed = await Effect.runPromise(automined(rpc, { data: STORES_CALLER }))
  contract = deployed.contractAddress!
  written = Number((await Effect.runPromise(automined(rpc, { to: contract, data: "0x" }))).blockNumber)
})
afterAll(async () => {
  await counter.close()
  await new Promise((done) => withoutTrace.close(done))
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

describe("what a block wrote", () => {
  it.effect("anvil is asked by parity replay, and names the contract written, not the sender", () =>
    Effect.gen(function*() {
      const writes = yield* blockWrites(rpc)
      methods.length = 0
      const found = yield* writes.writtenAt(written)
      expect([...found]).toEqual([contract.toLowerCase()])
      expect(methods).toEqual(["trace_replayBlockTransactions"])
    }))

  it.effect("a node without trace_* is asked by the prestate tracer, with the same answer, and not asked again", () =>
    Effect.gen(function*() {
      const { port } = withoutTrace.address() as AddressInfo
      const writes = yield* blockWrites(rpcAt(`http://127.0.0.1:${port}`))
      expect([...(yield* writes.writtenAt(written))]).toEqual([contract.toLowerCase()])
      expect([...(yield* writes.writtenAt(written))]).toEqual([contract.toLowerCase()])
      expect(refused).toBe(1)
      expect(yield* writes.traceable).toBe(true)
    }))
})

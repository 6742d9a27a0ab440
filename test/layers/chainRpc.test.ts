/**
 * ChainRpc decodes the answers the service reads. A real node cannot be made to answer a malformed
 * result, so this file alone serves JSON-RPC from `malformedNode`, a named fake: a tiny HTTP server
 * answering every call with the result it is given. The service must see `RpcUnavailable` naming the
 * method, not a defect where it first reads a missing field.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { lowerHex, RpcHex } from "../../schema/Chain.js"
import { blockLogs } from "../../src/indexer/BlockReads.js"
import { latestHeader, makeBatchSizer } from "../../src/indexer/ChainSource.js"

interface RpcCall {
  readonly id: number
  readonly method: string
}

let server: Server | undefined
afterEach(() => new Promise<void>((done) => server === undefined ? done() : server.close(() => done())))

/** The fake node: answers every call (batched or not) with `result(method)`. */
const malformedNode = (result: (method: string) => unknown) =>
  new Promise<ChainRpc["Type"]>((ready) => {
    server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => body += chunk)
      request.on("end", () => {
        const parsed: RpcCall | ReadonlyArray<RpcCall> = JSON.parse(body)
        const answer = (call: RpcCall) => ({ jsonrpc: "2.0", id: call.id, result: result(call.method) })
        response.setHeader("content-type", "application/json")
        response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed as RpcCall)))
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server!.address() as AddressInfo
      ready(ChainRpc.make({ rpcUrl: `http://127.0.0.1:${port}`, chainId: 5042 }))
    })
  })

describe("ChainRpc answers", () => {
  it.effect("a well-formed answer is decoded", () =>
    Effect.gen(function*() {
      const rpc = yield* Effect.promise(() => malformedNode(() => "0x2a"))
      expect(yield* rpc.read(RpcHex, "eth_blockNumber")).toBe("0x2a")
    }))

  it.effect("a malformed answer is RpcUnavailable naming the method", () =>
    Effect.gen(function*() {
      const rpc = yield* Effect.promise(() => malformedNode(() => ({ number: 7 })))
      const read = yield* Effect.either(rpc.read(Schema.Struct({ number: RpcHex }), "eth_getBlockByNumber"))
      expect(Either.isLeft(read) && read.left._tag).toBe("RpcUnavailable")
      expect(Either.isLeft(read) && read.left.message).toBe(
        "chain RPC answered eth_getBlockByNumber with a malformed result"
      )
    }))

  it.effect("the head read by the indexer fails as RpcUnavailable on a header without a hash", () =>
    Effect.gen(function*() {
      const rpc = yield* Effect.promise(() => malformedNode(() => ({ number: "0x1", parentHash: "0x00" })))
      const head = yield* Effect.either(Effect.provideService(latestHeader(), ChainRpc, rpc))
      expect(Either.isLeft(head) && head.left._tag).toBe("RpcUnavailable")
      expect(Either.isLeft(head) && head.left.hint).toMatch(/hash/)
    }))

  it.effect("a log without topics fails the logs read as RpcUnavailable", () =>
    Effect.gen(function*() {
      const log = { address: "0x01", data: "0x", blockNumber: "0x1", blockHash: "0x02", transactionHash: "0x03" }
      const rpc = yield* Effect.promise(() => malformedNode(() => [{ ...log, logIndex: "0x0" }]))
      const sizer = yield* makeBatchSizer(8)
      const logs = yield* Effect.either(
        Effect.provideService(blockLogs(lowerHex("0x02"), [lowerHex("0x03")], sizer), ChainRpc, rpc)
      )
      expect(Either.isLeft(logs) && logs.left.message).toBe("chain RPC answered eth_getLogs with a malformed result")
    }))
})

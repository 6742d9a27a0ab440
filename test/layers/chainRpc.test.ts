/**
 * ChainRpc decodes the answers the service reads. A real node cannot be made to answer a malformed
 * result, so this file alone serves JSON-RPC from `malformedNode`, a named fake: a tiny HTTP server
 * answering every call with the result it is given. The service must see `RpcUnavailable` naming the
 * method, not a defect where it first reads a missing field. `chunkedLogsNode`, the same kind of fake,
 * answers logs in chunks without their length, which anvil (always sending it) never does: such an answer
 * is read whole and counted against the cap as it comes (../../layers/chain/WholeBody.ts).
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { lowerHex, RpcHex } from "../../schema/Chain.js"
import { blockLogs } from "../../src/indexer/BlockReads.js"
import { isTooMuch, latestHeader, logs, makeBatchSizer } from "../../src/indexer/ChainSource.js"

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

/**
 * The fake node again, answering `eth_getLogs` with `count` logs written a few at a time, without a
 * length: the answer's text is joined from its chunks, and its size is known only by counting them.
 */
const chunkedLogsNode = (count: number) =>
  new Promise<ChainRpc["Type"]>((ready) => {
    server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => body += chunk)
      request.on("end", () => {
        const call: RpcCall = JSON.parse(body)
        response.setHeader("content-type", "application/json")
        response.write(`{"jsonrpc":"2.0","id":${call.id},"result":[`)
        for (let i = 0; i < count; i++) {
          const log = {
            address: "0x0000000000000000000000000000000000000001",
            topics: [`0x${i.toString(16).padStart(64, "0")}`],
            data: `0x${"ab".repeat(5_000)}`,
            blockNumber: "0x1",
            blockHash: `0x${"00".repeat(32)}`,
            transactionHash: `0x${"00".repeat(32)}`,
            logIndex: `0x${i.toString(16)}`
          }
          response.write(`${i === 0 ? "" : ","}${JSON.stringify(log)}`)
        }
        response.end("]}")
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server!.address() as AddressInfo
      ready(ChainRpc.make({ rpcUrl: `http://127.0.0.1:${port}`, chainId: 5042 }))
    })
  })

describe("a large answer without its length (read whole before its text is made)", () => {
  it.effect("is read complete, in order", () =>
    Effect.gen(function*() {
      const rpc = yield* Effect.promise(() => chunkedLogsNode(500))
      const found = yield* Effect.provideService(logs(1, 1, yield* makeBatchSizer(8)), ChainRpc, rpc)
      expect(found.map((log) => Number(log.logIndex))).toEqual(Array.from({ length: 500 }, (_, i) => i))
    }))

  it.effect("over the cap, is refused as too much once the bytes counted pass it", () =>
    Effect.gen(function*() {
      const rpc = yield* Effect.promise(() => chunkedLogsNode(1_500))
      const read = yield* Effect.either(rpc.read(Schema.Unknown, "eth_getLogs", [{}]))
      expect(Either.isLeft(read) && isTooMuch(read.left)).toBe(true)
      expect(Either.isLeft(read) && read.left.hint).toMatch(/exceeded the size limit \(\d+ bytes, at most 10485760\)/)
    }))
})

/**
 * `eth_getLogs` ranges against a node that caps its answers: a refused range is split until accepted,
 * the logs come back complete and in order, and the batch size shrinks to what the node accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Context, Effect } from "effect"
import { ResponseBodyTooLargeError } from "viem"
import { oversizedHint } from "../../layers/chain/CallFaults.js"
import { ChainRpc, decodeAnswer } from "../../layers/ChainRpc.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import { logs, makeBatchSizer } from "../../src/indexer/ChainSource.js"
import type { RawLog } from "../../src/indexer/Decode.js"
import { fakeChainRpc } from "../support/fakes.js"

const refusedBeyond = () =>
  new RpcUnavailable({ message: "chain RPC failed during eth_getLogs", hint: "query returned more than 10000 results" })

/**
 * One log per block; more than 250 logs in an answer is refused like Infura does, or (`refusal`) as
 * viem refuses an answer over its response cap, here 1 KB a log and a cap of 10 KB.
 */
const cappedNode = (
  calls: Array<readonly [number, number]>,
  refusal: (blocks: number) => RpcUnavailable = refusedBeyond,
  most = 250
): Context.Tag.Service<ChainRpc> => {
  const answer = (method: string, params: ReadonlyArray<unknown> = []): Effect.Effect<unknown, RpcUnavailable> => {
    if (method !== "eth_getLogs") return Effect.dieMessage(`unexpected ${method}`)
    const filter = params[0] as { fromBlock: string; toBlock: string }
    const from = Number(filter.fromBlock)
    const to = Number(filter.toBlock)
    calls.push([from, to])
    if (to - from + 1 > most) return Effect.fail(refusal(to - from + 1))
    const found: Array<RawLog> = []
    for (let block = from; block <= to; block++) {
      found.push({
        address: "0x01",
        topics: [],
        data: "0x",
        blockNumber: `0x${block.toString(16)}`,
        blockHash: "0x",
        transactionHash: "0x",
        logIndex: "0x0"
      })
    }
    return Effect.succeed(found)
  }
  return fakeChainRpc({
    read: (schema, method, params) => Effect.flatMap(answer(method, params), decodeAnswer(schema, method))
  })
}

describe("logs", () => {
  it.effect("splits refused ranges and shrinks the batch size", () =>
    Effect.gen(function*() {
      const calls: Array<readonly [number, number]> = []
      const sizer = yield* makeBatchSizer(2_000)
      const found = yield* logs(1, 2_000, sizer).pipe(Effect.provideService(ChainRpc, cappedNode(calls)))
      expect(found.map((log) => Number(log.blockNumber))).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1))
      expect(yield* sizer.current).toBeLessThanOrEqual(250)
      expect(calls.every(([from, to]) => to >= from)).toBe(true)
      yield* sizer.succeeded()
      expect(yield* sizer.current).toBeGreaterThan(125)
    }))

  it.effect("an answer refused as so many bytes over the cap is cut once to pieces that fit", () =>
    Effect.gen(function*() {
      const calls: Array<readonly [number, number]> = []
      const overCapOf = (blocks: number) =>
        new RpcUnavailable({
          message: "chain RPC failed during eth_getLogs",
          hint: oversizedHint(new ResponseBodyTooLargeError({ size: blocks * 1_000, maxSize: 10_000 }))
        })
      const sizer = yield* makeBatchSizer(2_000)
      const found = yield* logs(1, 2_000, sizer).pipe(Effect.provideService(ChainRpc, cappedNode(calls, overCapOf, 10)))
      expect(found.map((log) => Number(log.blockNumber))).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1))
      // 200 times over the cap: one refusal, then pieces of 2,000 / (200 × 1.25) = 8 blocks.
      expect(calls.filter(([from, to]) => to - from + 1 > 10)).toEqual([[1, 2_000]])
      expect(yield* sizer.current).toBe(8)
    }))

  it.effect("other failures are not split", () =>
    Effect.gen(function*() {
      const sizer = yield* makeBatchSizer(100)
      const down = fakeChainRpc({
        read: () => Effect.fail(new RpcUnavailable({ message: "chain RPC failed", hint: "ECONNREFUSED" }))
      })
      const result = yield* Effect.either(logs(1, 100, sizer).pipe(Effect.provideService(ChainRpc, down)))
      expect(result._tag).toBe("Left")
      expect(yield* sizer.current).toBe(100)
    }))
})

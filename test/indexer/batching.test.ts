/**
 * `eth_getLogs` ranges against a node that caps its answers: a refused range is split until accepted,
 * the logs come back complete and in order, and the batch size shrinks to what the node accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, type Context, Effect, Stream } from "effect"
import { ResponseBodyTooLargeError } from "viem"
import { oversizedHint, RESPONSE_CAP_BYTES } from "../../layers/chain/CallFaults.js"
import { ChainRpc, decodeAnswer } from "../../layers/ChainRpc.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import { logPieces, logs, makeBatchSizer, sampleDensity } from "../../src/indexer/ChainSource.js"
import type { RawLog } from "../../src/indexer/Decode.js"
import { fakeChainRpc } from "../support/fakes.js"
import { collectGarbage } from "../support/gc.js"

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

/**
 * Blocks 1-150 hold one log each, 151-200 a hundred: the whole range is 5 caps, the dense end 1 MB a
 * block. Logs of about 10 KB; an answer over the cap is refused as viem refuses it, with its size.
 */
const sparseThenDense = () => {
  const data = `0x${"ab".repeat(5_000)}` as const
  const logBytes = 360 + data.length
  const calls: Array<readonly [number, number]> = []
  const refused: Array<readonly [number, number]> = []
  const node = fakeChainRpc({
    read: (schema, method, params = []) => {
      const filter = params[0] as { fromBlock: string; toBlock: string }
      const from = Number(filter.fromBlock)
      const to = Number(filter.toBlock)
      calls.push([from, to])
      const found: Array<RawLog> = []
      for (let block = from; block <= to; block++) {
        for (let i = 0; i < (block > 150 ? 100 : 1); i++) {
          found.push({
            address: "0x01",
            topics: [],
            data,
            blockNumber: `0x${block.toString(16)}`,
            blockHash: "0x",
            transactionHash: "0x",
            logIndex: `0x${i.toString(16)}`
          })
        }
      }
      const size = found.length * logBytes
      if (size <= RESPONSE_CAP_BYTES) return Effect.flatMap(Effect.succeed(found), decodeAnswer(schema, method))
      refused.push([from, to])
      return Effect.fail(
        new RpcUnavailable({
          message: "chain RPC failed during eth_getLogs",
          hint: oversizedHint(new ResponseBodyTooLargeError({ size, maxSize: RESPONSE_CAP_BYTES }))
        })
      )
    }
  })
  return { node, calls, refused }
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
      // 200 times over the cap: one refusal, then pieces of a third of the cap, 2,000 / (200 × 3) = 3 blocks.
      expect(calls.filter(([from, to]) => to - from + 1 > 10)).toEqual([[1, 2_000]])
      expect(yield* sizer.current).toBe(3)
    }))

  it.effect("a refused range's dense end is asked in pieces sized by what the refusal said it holds, and learnt", () =>
    Effect.gen(function*() {
      const { calls, node, refused } = sparseThenDense()
      const sizer = yield* makeBatchSizer(2_000)
      const found = yield* logs(1, 200, sizer).pipe(Effect.provideService(ChainRpc, node))
      expect(found.length).toBe(150 + 50 * 100)
      expect(found.map((log) => Number(log.blockNumber))).toEqual(
        [...found.map((log) => Number(log.blockNumber))].sort((a, b) => a - b)
      )
      // Sized by the sparse answers alone, the piece that reached the dense blocks was refused again.
      expect(refused).toEqual([[1, 200]])
      // The sparse start in pieces of the unread part's average share, the dense end a third of the cap
      // (3 blocks) at a time: 40 calls, none of them refused.
      expect(calls.length).toBeLessThanOrEqual(40)
      expect(calls.filter(([from, to]) => from > 150 && to - from + 1 !== 3)).toEqual([[199, 200]])
      // The size learned the dense end: the next read of it (the follow step's) is not refused either.
      yield* logs(151, 200, sizer).pipe(Effect.provideService(ChainRpc, node))
      expect(refused).toEqual([[1, 200]])
    }))

  it.effect("a range whose newest block was sampled first starts small: its one refusal is a fraction of the range", () =>
    Effect.gen(function*() {
      const { node, refused } = sparseThenDense()
      const sizer = yield* makeBatchSizer(2_000)
      yield* sampleDensity(200, sizer, []).pipe(Effect.provideService(ChainRpc, node))
      expect(yield* sizer.current).toBe(3)
      const found = yield* logs(1, 200, sizer).pipe(Effect.provideService(ChainRpc, node))
      expect(found.length).toBe(150 + 50 * 100)
      // From 3 blocks, a quarter more per sparse answer, the size walks into the dense end at some 30
      // blocks (2 caps' worth) instead of asking the whole range (5 caps) first.
      expect(refused.length).toBe(1)
      expect(refused[0]![1] - refused[0]![0] + 1).toBeLessThan(50)
    }))

  it.effect("a piece is digested as it arrives: what the stream hands on holds none of its logs", () =>
    Effect.gen(function*() {
      // What a catch-up holds in memory (docs/performance.md, branch catchrss): a piece waits behind the
      // one being applied, and its logs, held with it, outlived young collections into the old generation.
      const sent: Array<WeakRef<RawLog>> = []
      const node = fakeChainRpc({
        read: (schema, method, params = []) => {
          const filter = params[0] as { fromBlock: string; toBlock: string }
          const found: Array<RawLog> = []
          for (let block = Number(filter.fromBlock); block <= Number(filter.toBlock); block++) {
            const log: RawLog = {
              address: "0x01",
              topics: [],
              data: `0x${"ab".repeat(1_000)}`,
              blockNumber: `0x${block.toString(16)}`,
              blockHash: "0x",
              transactionHash: "0x",
              logIndex: "0x0"
            }
            sent.push(new WeakRef(log))
            found.push(log)
          }
          return Effect.flatMap(Effect.succeed(found), decodeAnswer(schema, method))
        }
      })
      const sizer = yield* makeBatchSizer(10)
      const digested = yield* Stream.runCollect(
        logPieces(1, 100, sizer, [], 1, (piece) => Effect.succeed({ from: piece.from, logs: piece.raw.length }))
      ).pipe(Effect.provideService(ChainRpc, node))
      // A later turn: a WeakRef's target is kept for the rest of the turn that last read it.
      yield* Effect.promise(() => new Promise((turn) => setTimeout(turn, 0)))
      collectGarbage()
      expect(sent.length).toBe(100)
      expect(sent.filter((log) => log.deref() !== undefined).length).toBe(0)
      expect(Chunk.toReadonlyArray(digested).map((piece) => piece.logs)).toEqual(Array(10).fill(10))
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

/**
 * Which blocks the service traces by itself, against a real anvil: the blocks it applies once it is near
 * the head, and not a stretch the index applied far behind the head (a catch-up's last
 * blocks, each a full trace parsed on the event loop requests share). A reader asking across such a
 * stretch still gets every write in it: those blocks are traced when asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Schedule, Schema, Scope } from "effect"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { emptyState } from "../../src/indexer/State.js"
import { StateChanges } from "../../src/safety/StateChanges.js"
import { automined, STORES_CALLER } from "../support/automined.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"

const HEAD = 40

const scope = Effect.runSync(Scope.make())
let counter: RpcCounter
const traced: Array<number> = []
let rpc: ChainRpc["Type"]
let contract: string
let written: number

const mineTo = (block: number) =>
  Effect.flatMap(
    rpc.read(Schema.String, "eth_blockNumber"),
    (now) => rpc.request("anvil_mine", [`0x${(block - Number(now)).toString(16)}`])
  )

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  counter = await startRpcCounter(anvil.rpcUrl, (call) => {
    if (call.method === "trace_replayBlockTransactions") traced.push(Number(call.params[0]))
    return undefined
  })
  rpc = ChainRpc.make({ rpcUrl: counter.url, chainId: devnetDefaults.chainId })
  await Effect.runPromise(Effect.gen(function*() {
    contract = (yield* automined(rpc, { data: STORES_CALLER })).contractAddress!.toLowerCase()
    yield* mineTo(14)
    written = Number((yield* automined(rpc, { to: contract, data: "0x" })).blockNumber)
    yield* mineTo(HEAD)
  }))
})
afterAll(async () => {
  await counter.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

// Built when the test runs: the node's proxy exists only after beforeAll.
const changesOnAnvil = Layer.suspend(() =>
  StateChanges.Default.pipe(Layer.provideMerge(Layer.merge(Layer.succeed(ChainRpc, rpc), ChainIndex.Default)))
)

const at = (block: number, head = HEAD, epoch = 0) => ({
  state: { ...emptyState(1), block },
  head,
  headTime: 0,
  catchingUp: false,
  epoch
})

/** Until the node has been asked to trace `block`. */
const tracedUpTo = (block: number) =>
  Effect.sync(() => traced.includes(block)).pipe(
    Effect.filterOrFail((done) => done, () => new Error(`block ${block} not traced yet`)),
    Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("10 seconds")))
  )

describe("the blocks the service traces by itself", () => {
  it.live("a stretch applied far behind the head is traced only when asked, with every write in it", () =>
    Effect.gen(function*() {
      expect(written).toBe(15)
      const index = yield* ChainIndex
      const changes = yield* StateChanges
      // Until the service follows the index (its fiber subscribes on its own time): a block at the head,
      // published after the one before it, is traced.
      let epoch = 0
      while (!traced.includes(2)) {
        epoch++
        yield* index.publish(at(1, 1, epoch))
        yield* index.publish(at(2, 2, epoch))
        yield* Effect.sleep("50 millis")
      }
      // The index reaches the reorg window 35 blocks behind the head, applies 25 blocks, then 6 more to 4
      // behind the head (following starts there), then the last 4.
      yield* index.publish(at(5, HEAD, epoch + 1))
      yield* index.publish(at(30, HEAD, epoch + 1))
      yield* index.publish(at(36, HEAD, epoch + 1))
      yield* index.publish(at(HEAD, HEAD, epoch + 1))
      yield* tracedUpTo(HEAD)
      // (block 2 may be traced again by a round of the loop above still under way)
      expect(traced.filter((block) => block > 2).sort((a, b) => a - b)).toEqual([37, 38, 39, 40])

      traced.length = 0
      const between = yield* changes.writtenBetween(10, HEAD)
      expect(Option.map(between, (set) => [...set])).toEqual(Option.some([contract]))
      expect([...traced].sort((a, b) => a - b)).toEqual(Array.from({ length: 26 }, (_, i) => 11 + i))
    }).pipe(Effect.provide(changesOnAnvil)))
})

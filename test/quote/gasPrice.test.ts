/**
 * The gas price a quote prices with (src/quote/GasPrice.ts), against a real anvil behind a counting
 * proxy: read once as the index publishes a block, before any quote asks, so the quotes of that block
 * send nothing; a quote asking for a block the index has not published yet reads it once for all.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Schedule, Scope } from "effect"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { emptyState } from "../../src/indexer/State.js"
import { GasPrice } from "../../src/quote/GasPrice.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"

const scope = Effect.runSync(Scope.make())
let counter: RpcCounter
let rpc: ChainRpc["Type"]
let reads = 0

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  counter = await startRpcCounter(anvil.rpcUrl, (call) => {
    if (call.method === "eth_gasPrice") reads++
    return undefined
  })
  rpc = ChainRpc.make({ rpcUrl: counter.url, chainId: devnetDefaults.chainId })
})
afterAll(async () => {
  await counter.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

// Built when the test runs: the node's proxy exists only after beforeAll.
const gasOnAnvil = Layer.suspend(() =>
  GasPrice.Default.pipe(Layer.provideMerge(Layer.merge(Layer.succeed(ChainRpc, rpc), ChainIndex.Default)))
)

const at = (block: number) => ({
  state: { ...emptyState(1), block },
  head: block,
  headTime: 0,
  catchingUp: false,
  epoch: 0
})

const readsReach = (count: number) =>
  Effect.sync(() => reads).pipe(
    Effect.filterOrFail((now) => now >= count, (now) => new Error(`${now} gas price reads, not ${count}`)),
    Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("10 seconds")))
  )

describe("the gas price a quote prices with", () => {
  it.live("read as the index publishes a block; that block's quotes send nothing; a block ahead of the index once", () =>
    Effect.gen(function*() {
      const index = yield* ChainIndex
      const gas = yield* GasPrice
      // Until the follower has subscribed (its fiber starts on its own time), a published block is read.
      while (reads === 0) {
        yield* index.publish(at(5))
        yield* Effect.sleep("50 millis")
      }
      yield* readsReach(1)
      const before = reads
      // Two quotes of the block while its read is under way or done, then one of the block before.
      const wei = yield* Effect.all([gas.at(5), gas.at(5)], { concurrency: "unbounded" })
      expect(yield* gas.at(4)).toBe(wei[0])
      expect(wei[0]).toBeGreaterThan(0n)
      expect(reads).toBe(before)

      yield* Effect.all([gas.at(7), gas.at(7)], { concurrency: "unbounded" })
      expect(reads).toBe(before + 1)
      // Published after a quote read it: nothing more.
      yield* index.publish(at(7))
      yield* Effect.sleep("100 millis")
      expect(reads).toBe(before + 1)
    }).pipe(Effect.provide(gasOnAnvil)))
})

/**
 * The gas price of a block is read when the index publishes the block, not when the first quote of the
 * block asks (`GasPrice`), against a real anvil over HTTP through a call counter: once a block is
 * published its price is read with no quote asking, a quote then asks without a read of its own, and
 * quotes that come while the read is still at the node share it. Snapshots are published directly
 * (only their block matters to the price); the node and its answers are real.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { RpcHex } from "../../schema/Chain.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { emptyState } from "../../src/indexer/State.js"
import { GasPrice } from "../../src/quote/GasPrice.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { untilAsync } from "../support/until.js"

const scope = Effect.runSync(Scope.make())
let http: RpcCounter
let nodeUrl: string
let gasReads = 0
/** While set, gas price reads reach the node only once it settles. */
let held: Promise<void> | undefined
let runtime: ManagedRuntime.ManagedRuntime<GasPrice | ChainIndex | ChainRpc, unknown>

/** The node's own answer, asked directly (not through the counter). */
const nodeGasPrice = async () => {
  const answer = await fetch(nodeUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_gasPrice", params: [] })
  })
  return BigInt(((await answer.json()) as { result: string }).result)
}

/** Mines a block and publishes a snapshot at it, as the indexer does once it has applied the block. */
const publishNewBlock = () =>
  runtime.runPromise(Effect.gen(function*() {
    const rpc = yield* ChainRpc
    yield* rpc.request("evm_mine")
    const block = Number(yield* rpc.read(RpcHex, "eth_blockNumber"))
    yield* (yield* ChainIndex).publish({
      state: emptyState(block + 1),
      head: block,
      headTime: 0,
      catchingUp: false,
      epoch: 0
    })
    return block
  }))

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  nodeUrl = anvil.rpcUrl
  http = await startRpcCounter(anvil.rpcUrl, (call) => {
    if (call.method !== "eth_gasPrice") return undefined
    gasReads++
    return held
  })
  const rpc = Layer.succeed(ChainRpc, ChainRpc.make({ rpcUrl: http.url, chainId: devnetDefaults.chainId }))
  runtime = ManagedRuntime.make(Layer.provideMerge(GasPrice.Default, Layer.merge(ChainIndex.Default, rpc)))
  await runtime.runPromise(GasPrice)
})
afterAll(async () => {
  await runtime.dispose()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await http.close()
})

describe("the gas price of a block", () => {
  it("is read when the block is published, so the block's first quote makes no read of its own", async () => {
    const before = gasReads
    const block = await publishNewBlock()
    await untilAsync("the published block's price read", async () => gasReads > before)
    expect(gasReads - before).toBe(1)
    const asked = gasReads
    const wei = await runtime.runPromise(Effect.flatMap(GasPrice, (gas) => gas.at(block)))
    expect(wei).toBe(await nodeGasPrice())
    // An older block is answered by the newer block's price, as before.
    expect(await runtime.runPromise(Effect.flatMap(GasPrice, (gas) => gas.at(block - 1)))).toBe(wei)
    expect(gasReads).toBe(asked)
  })

  it("quotes that ask while the block's read is at the node share it", async () => {
    let release = () => {}
    held = new Promise((resolve) => (release = resolve))
    const before = gasReads
    const block = await publishNewBlock()
    await untilAsync("the published block's price read", async () => gasReads > before)
    const quotes = runtime.runPromise(
      Effect.flatMap(
        GasPrice,
        (gas) => Effect.all(Array.from({ length: 8 }, () => gas.at(block)), { concurrency: "unbounded" })
      )
    )
    release()
    held = undefined
    const prices = await quotes
    expect(new Set(prices)).toEqual(new Set([await nodeGasPrice()]))
    expect(gasReads - before).toBe(1)
  })
})

/**
 * The head at a request's arrival (`ChainHead.atArrival`) against a real anvil, over HTTP through a call
 * counter, with the poll parked: every call the counter sees is a read at arrival. Callers that arrive
 * in one event loop turn share one read, sent after all of them arrived, and it names the block mined
 * just before they came.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { RpcHex } from "../../schema/Chain.js"
import { ChainHead } from "../../src/indexer/ChainHead.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { testSettings } from "../support/services.js"
import { untilAsync } from "../support/until.js"

const scope = Effect.runSync(Scope.make())
let http: RpcCounter
let runtime: ManagedRuntime.ManagedRuntime<ChainHead | ChainRpc, unknown>

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  http = await startRpcCounter(anvil.rpcUrl)
  const rpc = Layer.succeed(ChainRpc, ChainRpc.make({ rpcUrl: http.url, chainId: devnetDefaults.chainId }))
  runtime = ManagedRuntime.make(
    Layer.provideMerge(
      ChainHead.Default,
      Layer.merge(rpc, AppConfig.Default.pipe(Layer.provide(testSettings({ INDEXER_POLL_MS: "3600000" }))))
    )
  )
  await untilAsync("the first poll", () => runtime.runPromise(Effect.flatMap(ChainHead, (head) => head.probe)))
})
afterAll(async () => {
  await runtime.dispose()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await http.close()
})

describe("the head at arrival", () => {
  it("20 callers in one turn share one read, which names the block mined just before", async () => {
    const mined = await runtime.runPromise(
      Effect.flatMap(
        ChainRpc,
        (rpc) => Effect.zipRight(rpc.request("evm_mine"), Effect.map(rpc.read(RpcHex, "eth_blockNumber"), Number))
      )
    )
    const before = http.calls()
    const heads = await runtime.runPromise(
      Effect.flatMap(
        ChainHead,
        (head) => Effect.all(Array.from({ length: 20 }, () => head.atArrival), { concurrency: "unbounded" })
      )
    )
    expect(heads.map((head) => head.number)).toEqual(Array.from({ length: 20 }, () => mined))
    expect(http.calls() - before).toBe(1)
  })
})

/**
 * The head at a request's arrival (`ChainHead.atArrival`) against a real anvil, over HTTP through a call
 * counter, with the poll parked: every call the counter sees is a read at arrival. Callers that arrive
 * in one event loop turn share one read, sent after all of them arrived, and it names the block mined
 * just before they came. A caller that waits for the read within a bound is handed that read, the
 * same one as every caller it shared it with, or none when the bound passed first.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
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
/** While set, head reads reach the node only once it settles. */
let headsHeld: Promise<void> | undefined
let runtime: ManagedRuntime.ManagedRuntime<ChainHead | ChainRpc, unknown>

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  http = await startRpcCounter(
    anvil.rpcUrl,
    (call) => call.method === "eth_getBlockByNumber" ? headsHeld : undefined
  )
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

  it("callers waiting within a bound are handed the read they shared, and a caller after it another", async () => {
    const before = http.calls()
    const [burst, later] = await runtime.runPromise(Effect.flatMap(ChainHead, (head) => {
      const within = head.headWithin(Duration.seconds(30))
      return Effect.zip(Effect.all(Array.from({ length: 20 }, () => within), { concurrency: "unbounded" }), within)
    }))
    expect(burst[0]).toBeDefined()
    expect(new Set(burst)).toEqual(new Set([burst[0]]))
    expect(later).toBeDefined()
    expect(later).not.toBe(burst[0])
    expect(http.calls() - before).toBe(2)
  })

  it("callers whose read has not landed within the bound are each handed none", async () => {
    let release = () => {}
    headsHeld = new Promise<void>((resolve) => {
      release = resolve
    })
    try {
      const reads = await runtime.runPromise(
        Effect.flatMap(ChainHead, (head) =>
          Effect.all(
            Array.from({ length: 5 }, () => head.headWithin(Duration.millis(50))),
            {
              concurrency: "unbounded"
            }
          ))
      )
      expect(reads).toEqual([undefined, undefined, undefined, undefined, undefined])
    } finally {
      headsHeld = undefined
      release()
    }
  })
})

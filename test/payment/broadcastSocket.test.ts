/**
 * A `broadcast` paid call's two chain calls on its answer's path, the verify's simulation and the
 * settlement's `eth_sendRawTransaction`, go as frames on the node's websocket, not through the batched
 * HTTP transport (whose wait for company and fetch cost a paid call milliseconds); the settlement still
 * lands and charges the payer once. HTTP runs through a proxy that records every method it carries; the
 * websocket goes to the node itself.
 */
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { Effect, ManagedRuntime, Option } from "effect"
import type { Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { websocketOf } from "../../layers/ChainRpc.js"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { clientsFor, manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { walletFor } from "../support/wallet.js"
import { gateLayer, pay, USDC } from "../support/x402.js"

const search: Charge = {
  price: 5_000n,
  resource: { url: "http://service.test/trade/v1/search", description: "search" }
}

let devnet: PrivateDevnet
let proxy: RpcCounter
let runtime: ManagedRuntime.ManagedRuntime<PaymentGate, unknown>
const overHttp: Array<string> = []
const payTo = privateKeyToAccount(generatePrivateKey()).address

beforeAll(async () => {
  devnet = await startDevnet()
  proxy = await startRpcCounter(devnet.manifest.rpcUrl, (call) => void overHttp.push(call.method))
  runtime = ManagedRuntime.make(
    gateLayer({ ...devnet.manifest, rpcUrl: proxy.url }, {
      SETTLEMENT_MODE: "broadcast",
      PAY_TO: payTo,
      WS_URL: websocketOf(devnet.manifest.rpcUrl)
    })
  )
})
afterAll(async () => {
  await runtime?.dispose()
  await proxy?.close()
  await devnet?.stop()
})

const gate = <A, E>(use: (gate: PaymentGate["Type"]) => Effect.Effect<A, E>) =>
  runtime.runPromise(Effect.flatMap(PaymentGate, use))

describe("a broadcast paid call's chain calls on its path", () => {
  it("go over the node's websocket, and the settlement lands charging the payer once", async () => {
    const payer = manifestAccount(devnet.manifest, 5)
    const paidOnce = async () => {
      const offer = await gate((g) => Effect.succeed(g.offer(search)))
      const { header } = await pay(payer, offer as unknown as LibraryOffer)
      return gate((g) =>
        Effect.map(
          g.charge(search, Option.some(SubmittedPayment.header(header)), Effect.succeed("answer")),
          (answer) => Option.getOrThrow(answer.receipt).settlement
        )
      )
    }
    const landed = (transaction: string) =>
      clientsFor(devnet.manifest).public.waitForTransactionReceipt({ hash: transaction as Hex, timeout: 20_000 })
    // The first settlement numbers the key (its pending count, over HTTP) and prices it; the second
    // finds both known.
    await landed((await paidOnce()).transaction)
    let settlement: Awaited<ReturnType<typeof paidOnce>> | undefined
    const deltas = await walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], async () => {
      overHttp.length = 0
      settlement = await paidOnce()
      expect((await landed(settlement.transaction)).status).toBe("success")
    })
    expect(settlement?.success).toBe(true)
    expect(overHttp).not.toContain("eth_call")
    expect(overHttp).not.toContain("eth_sendRawTransaction")
    expect(deltas).toEqual([-5_000n, 5_000n])
  })
})

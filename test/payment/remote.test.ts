/**
 * The remote-facilitator layer against an x402 facilitator service stood up in the test: the public
 * library's facilitator and exact EVM scheme behind `/verify` and `/settle`, as an operator would run
 * one, with its own settlement key. Then the same service misbehaving: answering 500, answering
 * garbage. A payment settles on chain through HTTP; a broken facilitator is `payment_unavailable`.
 */
import { x402Facilitator } from "@x402/core/facilitator"
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { toFacilitatorEvmSigner } from "@x402/evm"
import { ExactEvmScheme } from "@x402/evm/exact/facilitator"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { publicActions } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { clientsFor, freshAccount, manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { gateLayer, pay, USDC } from "../support/x402.js"

let devnet: PrivateDevnet
let server: Server
let url = ""
let mode: "serve" | "fail" | "garbage" = "serve"
/** What the facilitator says it supports at `/supported`. */
let supported = (): unknown => facilitatorService.getSupported()
let facilitatorService: x402Facilitator
const payTo = privateKeyToAccount(generatePrivateKey()).address
const charge: Charge = { price: 10_000n, resource: { url: "http://service.test/trade/v1/quote" } }

beforeAll(async () => {
  devnet = await startDevnet()
  const operator = await freshAccount(devnet.manifest)
  const client = clientsFor(devnet.manifest, operator).wallet.extend(publicActions)
  const facilitator = facilitatorService = new x402Facilitator().register(
    "eip155:5042",
    new ExactEvmScheme(toFacilitatorEvmSigner({
      address: operator.address,
      readContract: (args) => client.readContract(args as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => client.writeContract({ ...args, account: operator, chain: client.chain } as never),
      sendTransaction: (args) => client.sendTransaction({ ...args, account: operator, chain: client.chain }),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args)
    }))
  )
  server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", async () => {
      if (request.url?.endsWith("/supported")) {
        return response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(supported()))
      }
      if (mode === "fail") return response.writeHead(500).end("upstream broke")
      if (mode === "garbage") return response.writeHead(200, { "content-type": "application/json" }).end("{\"nope\":1}")
      const { paymentPayload, paymentRequirements } = JSON.parse(body)
      const answer = request.url?.endsWith("/verify")
        ? await facilitator.verify(paymentPayload, paymentRequirements)
        : await facilitator.settle(paymentPayload, paymentRequirements)
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/facilitator`
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await devnet?.stop()
})

const attempt = async (payerIndex: number) => {
  const runtime = ManagedRuntime.make(gateLayer(devnet.manifest, { PAY_TO: payTo, FACILITATOR_URL: url }))
  try {
    const payer = manifestAccount(devnet.manifest, payerIndex)
    const gate = await runtime.runPromise(PaymentGate)
    expect(gate.facilitator).toBe("remote")
    const { header } = await pay(payer, gate.offer(charge) as unknown as LibraryOffer)
    let runs = 0
    let outcome: unknown
    const delta = await walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], async () => {
      outcome = await runtime.runPromise(
        Effect.either(gate.charge(charge, Option.some(SubmittedPayment.header(header)), Effect.sync(() => ++runs)))
      )
    })
    return { outcome, delta, runs }
  } finally {
    await runtime.dispose()
  }
}

it("settles on chain through the facilitator at FACILITATOR_URL", async () => {
  mode = "serve"
  const { outcome, delta, runs } = await attempt(6)
  expect(outcome).toMatchObject({ _tag: "Right" })
  expect(delta).toEqual([-10_000n, 10_000n])
  expect(runs).toBe(1)
})

it.each(["fail", "garbage"] as const)("answers payment_unavailable when the facilitator answers %s", async (broken) => {
  mode = broken
  const { outcome, delta, runs } = await attempt(7)
  expect(outcome).toMatchObject({ _tag: "Left", left: { _tag: "PaymentUnavailable" } })
  expect(delta).toEqual([0n, 0n])
  expect(runs).toBe(0)
})

describe("at start", () => {
  const start = (facilitatorUrl: string) =>
    Effect.runPromise(
      Effect.either(
        Layer.build(gateLayer(devnet.manifest, { PAY_TO: payTo, FACILITATOR_URL: facilitatorUrl })).pipe(Effect.scoped)
      )
    )

  it("refuses to start with a facilitator that does not settle exact on this network", async () => {
    supported = () => ({
      kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:8453" }],
      extensions: [],
      signers: {}
    })
    try {
      const outcome = await start(url)
      expect(outcome._tag === "Left" && outcome.left).toMatchObject({
        _tag: "PaymentConfigError",
        message: expect.stringContaining(
          "does not settle scheme exact on eip155:5042 (x402 v2); it supports: exact eip155:8453"
        )
      })
    } finally {
      supported = () => facilitatorService.getSupported()
    }
  })

  it("refuses to start with a facilitator that does not answer /supported", async () => {
    const outcome = await start("http://127.0.0.1:9/facilitator")
    expect(outcome._tag === "Left" && outcome.left).toMatchObject({
      _tag: "PaymentConfigError",
      message: expect.stringContaining("the x402 facilitator did not say what it supports")
    })
  })
})

/**
 * An unmodified `@x402/fetch` client pays a 402 built from the gate's requirements. The HTTP side is a
 * minimal node:http handler (not the service's edge) that renders the gate's outcomes with
 * `src/payment/HttpPayment.ts`: 402 with `PAYMENT-REQUIRED` and the `payment_required` envelope, 402
 * `{}` for a rejection, 200 with `PAYMENT-RESPONSE` when paid.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch"
import { Effect, ManagedRuntime, Option } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { PrivateKeyAccount } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { toErrorBody } from "../../schema/ErrorBody.js"
import { rowOf } from "../../schema/ErrorTable.js"
import { isPaymentRefusal, receiptHeaders, refusalAnswer } from "../../src/payment/HttpPayment.js"
import { manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { gateLayer, payerClient, USDC } from "../support/x402.js"

let devnet: PrivateDevnet
let runtime: ManagedRuntime.ManagedRuntime<PaymentGate, unknown>
let server: Server
let url = ""
let payer: PrivateKeyAccount
const payTo = privateKeyToAccount(generatePrivateKey()).address
let runs = 0

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

const handle = (charge: Charge, signature: string | undefined): Effect.Effect<Answer, never, PaymentGate> =>
  Effect.flatMap(PaymentGate, (gate) =>
    gate.charge(
      charge,
      Option.map(Option.fromNullable(signature), SubmittedPayment.header),
      Effect.sync(() => ({ answer: ++runs }))
    ).pipe(
      Effect.map(({ receipt, value }): Answer => ({ status: 200, headers: receiptHeaders(receipt), body: value })),
      Effect.catchAll((failure): Effect.Effect<Answer> =>
        Effect.succeed(
          isPaymentRefusal(failure)
            ? refusalAnswer(gate, failure)
            : { status: rowOf(failure).status, headers: {}, body: toErrorBody(failure) }
        )
      )
    ))

beforeAll(async () => {
  devnet = await startDevnet()
  payer = manifestAccount(devnet.manifest, 4)
  runtime = ManagedRuntime.make(gateLayer(devnet.manifest, { PAY_TO: payTo }))
  server = createServer((request, response) => {
    const charge: Charge = { price: 5_000n, resource: { url: `${url}${request.url ?? ""}`, description: "search" } }
    const signature = request.headers["payment-signature"]
    void runtime.runPromise(handle(charge, typeof signature === "string" ? signature : undefined)).then((answer) => {
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
      response.end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await runtime?.dispose()
  await devnet?.stop()
})

const balances = (action: () => Promise<unknown>) =>
  walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], action)

it("answers an unpaid call 402 with PAYMENT-REQUIRED and the payment_required envelope", async () => {
  const response = await fetch(`${url}/trade/v1/search`, { method: "POST", body: "{}" })
  expect(response.status).toBe(402)
  expect(response.headers.get("payment-required")).toMatch(/^[A-Za-z0-9+/=]+$/)
  expect(await response.json()).toMatchObject({ error: { code: "payment_required" }, next: "pay" })
})

it("is paid by @x402/fetch that allows the chain's USDC with a per-payment cap", async () => {
  const paying = wrapFetchWithPayment(fetch, payerClient(payer, "eip155:5042", "10000"))
  let response: Response | undefined
  const before = runs
  const delta = await balances(async () => {
    response = await paying(`${url}/trade/v1/search`, { method: "POST", body: "{}" })
  })
  expect(response?.status).toBe(200)
  expect(delta).toEqual([-5_000n, 5_000n])
  expect(runs).toBe(before + 1)
  const receipt = decodePaymentResponseHeader(response?.headers.get("payment-response") ?? "")
  expect(receipt).toMatchObject({ success: true, payer: payer.address, network: "eip155:5042" })
})

it("is refused by a client whose cap is below the price, or that does not allow the asset: nothing is signed", async () => {
  const capped = wrapFetchWithPayment(fetch, payerClient(payer, "eip155:5042", "4999"))
  const unlisted = wrapFetchWithPayment(
    fetch,
    new x402Client().register("eip155:5042", new ExactEvmScheme(payer))
  )
  const delta = await balances(async () => {
    await expect(capped(`${url}/trade/v1/search`, { method: "POST", body: "{}" })).rejects.toThrow()
    await expect(unlisted(`${url}/trade/v1/search`, { method: "POST", body: "{}" })).rejects.toThrow()
  })
  expect(delta).toEqual([0n, 0n])
})

it("answers a replayed PAYMENT-SIGNATURE 402 with an empty body", async () => {
  let signature = ""
  const recording = wrapFetchWithPayment(async (input, init) => {
    const request = new Request(input, init)
    signature = request.headers.get("payment-signature") ?? signature
    return fetch(request)
  }, payerClient(payer, "eip155:5042", "10000"))
  expect((await recording(`${url}/trade/v1/search`, { method: "POST", body: "{}" })).status).toBe(200)
  const delta = await balances(async () => {
    const replay = await fetch(`${url}/trade/v1/search`, {
      method: "POST",
      body: "{}",
      headers: { "PAYMENT-SIGNATURE": signature }
    })
    expect(replay.status).toBe(402)
    expect(await replay.json()).toEqual({})
    expect(decodePaymentRequiredHeader(replay.headers.get("payment-required") ?? "")).toMatchObject({
      error: "invalid_exact_evm_nonce_already_used",
      accepts: [{ amount: "5000" }]
    })
  })
  expect(delta).toEqual([0n, 0n])
})

/**
 * A payment is its request's idempotency key (issue 19's acceptance): the miner is paused while the
 * settlement is sent, so its receipt does not come in time. The call answers as the x402 reference
 * server does (402, `PAYMENT-RESPONSE` with `success: false`, `settlement_pending` and the transaction,
 * no offer to pay again); the same signed payment resent while the transaction waits gets the same; once
 * it is mined, the same payment is served 200 with that transaction, and the payer paid exactly once.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import { expect, it } from "vitest"
import { clientsFor } from "../support/devnet.js"
import { readJson } from "../support/http.js"
import { fees, paidServiceForFile } from "../support/paidService.js"
import { pay } from "../support/x402.js"

// The settlement's receipt is waited for 1.5 s, so a paused miner makes it pending.
const service = paidServiceForFile({ SETTLEMENT_RECEIPT_TIMEOUT_MS: "1500" })

const search = (headers: Record<string, string> = {}) =>
  fetch(`${service.server.baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ query: "WETH", limit: 1 })
  })

const pendingAnswer = async (answer: Response) => {
  expect(answer.status).toBe(402)
  expect(answer.headers.get("payment-required")).toBeNull()
  expect(answer.headers.get("cache-control")).toBe("no-store")
  expect(await answer.json()).toEqual({})
  return decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "")
}

it("serves a payment whose settlement was pending once it is mined, and charges it once", async () => {
  const offer = decodePaymentRequiredHeader((await search()).headers.get("payment-required") ?? "")
  const { header } = await pay(service.payer, offer)
  const paid = { "payment-signature": header }
  const chain = clientsFor(service.devnet.manifest, service.payer).test
  let sent = ""
  const delta = await fees(service, async () => {
    await chain.setAutomine(false)
    try {
      const first = await pendingAnswer(await search(paid))
      expect(first).toEqual({
        success: false,
        errorReason: "settlement_pending",
        transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        network: "eip155:5042",
        payer: service.payer.address
      })
      sent = first.transaction
      // Still not mined: the same answer again, on the same transaction; nothing new is sent.
      expect(await pendingAnswer(await search(paid))).toMatchObject({
        errorReason: "settlement_pending",
        transaction: sent
      })
    } finally {
      await chain.mine({ blocks: 1 })
      await chain.setAutomine(true)
    }
    const served = await search(paid)
    expect(served.status).toBe(200)
    expect((await readJson(served)).results).toBeInstanceOf(Array)
    expect(decodePaymentResponseHeader(served.headers.get("payment-response") ?? "")).toEqual({
      success: true,
      transaction: sent,
      network: "eip155:5042",
      payer: service.payer.address
    })
    // Served once: the payment cannot buy a second answer.
    const again = await search(paid)
    expect(again.status).toBe(402)
    expect(decodePaymentRequiredHeader(again.headers.get("payment-required") ?? "").error).toBe(
      "invalid_exact_evm_nonce_already_used"
    )
  })
  expect(delta).toEqual([-5_000n, 5_000n])
  const receipt = await clientsFor(service.devnet.manifest, service.payer).public.getTransactionReceipt({
    hash: sent as `0x${string}`
  })
  expect(receipt.status).toBe("success")
})

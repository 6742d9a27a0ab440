/**
 * Payments through the service's own HTTP edge (issue 12's HTTP acceptance), on a private devnet with
 * a fresh fee recipient: an unmodified `@x402/fetch` pays for search exactly its price; an unpaid call
 * gets the offer; every error answer with a valid payment attached leaves the payer's balance alone;
 * one authorization pays for one call, however it is replayed; CORS lets a browser agent do all this.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import type { PaymentPayload } from "@x402/core/types"
import { wrapFetchWithPayment } from "@x402/fetch"
import { describe, expect, it } from "vitest"
import { clientsFor } from "../support/devnet.js"
import { readJson } from "../support/http.js"
import { fees, paidServiceForFile } from "../support/paidService.js"
import { encodePayment, pay, payerClient, USDC } from "../support/x402.js"

const service = paidServiceForFile()

const searchUrl = () => `${service.server.baseUrl}/trade/v1/search`
const json = { "content-type": "application/json" }
const weth = JSON.stringify({ query: "WETH", limit: 1 })

const post = (body: string, headers: Record<string, string> = {}, url = searchUrl()) =>
  fetch(url, { method: "POST", headers: { ...json, ...headers }, body })

/** The offer an unpaid search gets, signed by the payer: a valid `PAYMENT-SIGNATURE` for one search. */
const signedSearch = async (tamper: (payload: PaymentPayload) => PaymentPayload = (payload) => payload) => {
  const offer = decodePaymentRequiredHeader((await post(weth)).headers.get("payment-required") ?? "")
  const { payload } = await pay(service.payer, offer)
  return encodePayment(tamper(payload))
}

const userFetch = () => wrapFetchWithPayment(fetch, payerClient(service.payer, "eip155:5042", "10000"))

describe("paying for search over HTTP", () => {
  it("answers an unpaid search 402 with a decodable offer and the payment_required envelope", async () => {
    const response = await post(weth)
    expect(response.status).toBe(402)
    expect(await readJson(response)).toMatchObject({ error: { code: "payment_required" }, next: "pay" })
    const offer = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "")
    // Never cached: an offer (and its `error`, as the x402 reference words it) is for this request only.
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(offer).toMatchObject({
      x402Version: 2,
      error: "Payment required",
      resource: { url: expect.stringMatching(/\/trade\/v1\/search$/), mimeType: "application/json" }
    })
    expect(offer.accepts).toEqual([{
      scheme: "exact",
      network: "eip155:5042",
      amount: "5000",
      asset: USDC,
      payTo: service.payTo,
      maxTimeoutSeconds: expect.any(Number),
      extra: { name: "USDC", version: "2" }
    }])
    expect(offer.accepts[0]!.maxTimeoutSeconds).toBeGreaterThan(0)
  })

  it("is paid exactly 5000 base units by @x402/fetch, with a receipt whose transaction is mined", async () => {
    let response: Response | undefined
    const delta = await fees(service, async () => {
      response = await userFetch()(searchUrl(), { method: "POST", headers: json, body: weth })
    })
    expect(response?.status).toBe(200)
    expect(delta).toEqual([-5_000n, 5_000n])
    expect((await readJson(response!)).results[0].symbol).toBe("WETH")
    const receipt = decodePaymentResponseHeader(response?.headers.get("payment-response") ?? "")
    expect(receipt).toMatchObject({ success: true, payer: service.payer.address, network: "eip155:5042" })
    const mined = await clientsFor(service.devnet.manifest).public.getTransactionReceipt({
      hash: receipt.transaction as `0x${string}`
    })
    expect(mined.status).toBe("success")
  })

  it("never settles an error answer: 400, 404, 405, 413, 415 with a valid payment attached", async () => {
    const signature = await signedSearch()
    const paid = { "payment-signature": signature }
    const delta = await fees(service, async () => {
      const bad = await post("{\"query\":", paid)
      expect([bad.status, (await readJson(bad)).error.code]).toEqual([400, "invalid_request"])
      const unknown = await post(JSON.stringify({ query: "zzqqxx-no-such-token" }), paid)
      expect([unknown.status, (await readJson(unknown)).error.code]).toEqual([404, "token_not_found"])
      expect(unknown.headers.get("payment-response")).toBeNull()
      const wrongMethod = await fetch(searchUrl(), { headers: paid })
      expect(wrongMethod.status).toBe(405)
      const tooLarge = await post(JSON.stringify({ query: "x".repeat(2_000_000) }), paid)
      expect(tooLarge.status).toBe(413)
      const text = await fetch(searchUrl(), {
        method: "POST",
        headers: { ...paid, "content-type": "text/plain" },
        body: weth
      })
      expect(text.status).toBe(415)
    })
    expect(delta).toEqual([0n, 0n])
    // The authorization was released each time: it still pays for the one call that succeeds.
    const settled = await fees(service, async () => expect((await post(weth, paid)).status).toBe(200))
    expect(settled).toEqual([-5_000n, 5_000n])
  })

  it("refuses a replayed PAYMENT-SIGNATURE with 402 and an empty body", async () => {
    const signature = await signedSearch()
    expect((await post(weth, { "payment-signature": signature })).status).toBe(200)
    const delta = await fees(service, async () => {
      const replay = await post(weth, { "payment-signature": signature })
      expect(replay.status).toBe(402)
      expect(await readJson(replay)).toEqual({})
      expect(decodePaymentRequiredHeader(replay.headers.get("payment-required") ?? "")).toMatchObject({
        error: "invalid_exact_evm_nonce_already_used",
        accepts: [{ amount: "5000" }]
      })
    })
    expect(delta).toEqual([0n, 0n])
  })

  it("runs and settles once when two requests carry the same signature at the same time", async () => {
    const signature = await signedSearch()
    let statuses: Array<number> = []
    const delta = await fees(service, async () => {
      const answers = await Promise.all([0, 1].map(() => post(weth, { "payment-signature": signature })))
      statuses = answers.map((answer) => answer.status).sort()
    })
    expect(statuses).toEqual([200, 402])
    expect(delta).toEqual([-5_000n, 5_000n])
  })

  it("refuses a payment for the wrong amount, whatever the payer claims it accepted", async () => {
    const underpaid = await signedSearch((payload) => ({
      ...payload,
      accepted: { ...payload.accepted, amount: "4000" },
      payload: {
        ...payload.payload,
        authorization: { ...(payload.payload["authorization"] as object), value: "4000" }
      }
    }))
    const delta = await fees(service, async () => {
      const answer = await post(weth, { "payment-signature": underpaid })
      expect(answer.status).toBe(402)
      expect(await readJson(answer)).toEqual({})
      expect(decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "").error).toBe(
        "invalid_exact_evm_payload_authorization_value_mismatch"
      )
    })
    expect(delta).toEqual([0n, 0n])
  })

  it("asks nothing of a free operation", async () => {
    const venues = await fetch(`${service.server.baseUrl}/trade/v1/venues`)
    expect(venues.status).toBe(200)
    expect(venues.headers.get("payment-required")).toBeNull()
  })
})

describe("CORS for browser agents", () => {
  it("answers a preflight on every mounted path with the methods and headers a paid call needs", async () => {
    for (const [path, method] of [["/trade/v1/search", "POST"], ["/health", "GET"], ["/openapi.json", "GET"]]) {
      const preflight = await fetch(`${service.server.baseUrl}${path}`, {
        method: "OPTIONS",
        headers: {
          origin: "https://agent.example",
          "access-control-request-method": method!,
          "access-control-request-headers": "content-type, payment-signature, access-control-expose-headers"
        }
      })
      expect(preflight.status, path).toBe(204)
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
      expect(preflight.headers.get("access-control-allow-methods")).toContain(method)
      const allowed = preflight.headers.get("access-control-allow-headers")?.toLowerCase().split(/,\s*/)
      expect(allowed).toEqual(
        expect.arrayContaining(["content-type", "payment-signature", "x-request-id", "access-control-expose-headers"])
      )
      expect(Number(preflight.headers.get("access-control-max-age"))).toBeGreaterThan(0)
      expect(preflight.headers.get("x-request-id")).toBeTruthy()
    }
  })

  it("exposes the payment headers and the request id on every answer, paid, refused or failed", async () => {
    const answers = [
      await post(weth),
      await post("{", {}),
      await fetch(`${service.server.baseUrl}/health`),
      await fetch(`${service.server.baseUrl}/no-such-path`)
    ]
    for (const answer of answers) {
      expect(answer.headers.get("access-control-allow-origin")).toBe("*")
      expect(answer.headers.get("access-control-expose-headers")?.split(/,\s*/)).toEqual(
        expect.arrayContaining(["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-Request-Id"])
      )
    }
  })

  it("answers OPTIONS on an unknown path 404, as any method there", async () => {
    const answer = await fetch(`${service.server.baseUrl}/no-such-path`, { method: "OPTIONS" })
    expect(answer.status).toBe(404)
    expect(await readJson(answer)).toMatchObject({ error: { code: "not_found" } })
  })
})

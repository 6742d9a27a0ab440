/**
 * `POST /trade/v1/receipt` over HTTP as a curl user meets it: mounted, free (no 402, no payment
 * header, even with none sent), the standard envelope for a bad body and for an unknown quote, and
 * documented in the OpenAPI document without a price.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sharedManifest } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"
import { deploymentOf } from "../support/services.js"
import { newQuoteId, unknownHash } from "./support.js"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer(deploymentOf(sharedManifest()))
})
afterAll(() => server?.close())

const post = (body: string) =>
  fetch(`${server.baseUrl}/trade/v1/receipt`, { method: "POST", headers: { "content-type": "application/json" }, body })

describe("POST /trade/v1/receipt", () => {
  it("answers a bad body with 400 invalid_request and a detail per field", async () => {
    const response = await post(JSON.stringify({ quoteId: "nope", txHashes: [] }))
    expect(response.status).toBe(400)
    expect(response.headers.get("x-request-id")).toMatch(/^req_/)
    const body = await readJson(response)
    expect(body).toMatchObject({ error: { code: "invalid_request" }, next: "fix_request" })
    expect(body.error.details.map((detail: { path: Array<string> }) => detail.path[0]).sort()).toEqual([
      "quoteId",
      "txHashes"
    ])
    const tooMany = await readJson(
      await post(JSON.stringify({ quoteId: newQuoteId(), txHashes: Array(5).fill(unknownHash()) }))
    )
    expect(tooMany.error.details).toMatchObject([{ path: ["txHashes"] }])
  })

  it("is free: an unknown quote answers 404 swap_not_found without asking for payment", async () => {
    const response = await post(JSON.stringify({ quoteId: newQuoteId(), txHashes: [unknownHash()] }))
    expect(response.status).toBe(404)
    expect(response.headers.get("payment-required")).toBeNull()
    expect(await readJson(response)).toMatchObject({ error: { code: "swap_not_found" }, next: "stop" })
  })

  it("is in the OpenAPI document, without a price, with its rate-limit answers", async () => {
    const document = await readJson(await fetch(`${server.baseUrl}/openapi.json`))
    const operation = document.paths["/trade/v1/receipt"]?.post
    expect(operation).toBeDefined()
    expect(operation["x-price"]).toBeUndefined()
    expect(operation.responses["402"]).toBeUndefined()
    expect(JSON.stringify(operation.responses["404"])).toContain("swap_not_found")
    expect(JSON.stringify(operation.responses["429"])).toContain("receipt_rate_limited")
    expect(JSON.stringify(operation.responses["429"])).toContain("receipt_reads_exhausted")
    expect(JSON.stringify(operation.responses["200"])).toContain("ReceiptResponse")
  })
})

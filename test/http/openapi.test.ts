/**
 * The OpenAPI document as served: valid OpenAPI 3.1, every path, every error envelope, how to pay; and
 * exactly the committed fixture (test/http/fixtures/openapi.json, written by `npm run openapi:fixture`),
 * so any change to the contract shows as a diff to review.
 */
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FIXTURE, fixtureText } from "../../scripts/openapi-fixture.js"
import { offlineDeployment, readJson, startTestServer, type TestServer } from "../support/http.js"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer(offlineDeployment)
})
afterAll(() => server.close())

interface Operation {
  readonly responses: Record<
    string,
    {
      content?: Record<
        string,
        { schema: { $ref?: string; anyOf?: Array<{ $ref?: string; required?: Array<string> }> } }
      >
    }
  >
}
type OpenApiDocument = {
  openapi: string
  info: { version: string; contact: { url: string } }
  servers: Array<{ url: string }>
  paths: Record<string, Record<string, Operation>>
}

describe("OpenAPI document", () => {
  let document: OpenApiDocument

  beforeAll(async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`)
    expect(response.status).toBe(200)
    document = await readJson(response)
  })

  it("is a valid OpenAPI 3.1 document with description version 0.1.0", async () => {
    const result = await new Validator().validate(structuredClone(document) as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(document.openapi).toBe("3.1.0")
    expect(document.info.version).toBe("0.1.0")
  })

  it("is the committed fixture, byte for byte; served, it differs only in its address (server, contact)", () => {
    const committed = readFileSync(FIXTURE, "utf8")
    expect(Effect.runSync(fixtureText), "run `npm run openapi:fixture` and review the diff").toBe(committed)
    const fixture = JSON.parse(committed)
    const info = { ...document.info, contact: fixture.info.contact }
    expect({ ...document, info, servers: fixture.servers }).toEqual(fixture)
    expect(document).toMatchObject({ servers: [{ url: expect.stringMatching(/^http:\/\//) }] })
    expect(document.info.contact.url).toBe(document.servers[0].url)
  })

  it("lists every mounted path", () => {
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/.well-known/agent-registration.json",
        "/health",
        "/openapi.json",
        "/trade/v1/quote",
        "/trade/v1/receipt",
        "/trade/v1/search",
        "/trade/v1/swap",
        "/trade/v1/swap/tx",
        "/trade/v1/venues"
      ].sort()
    )
  })

  it("documents the error envelopes of each operation, not the framework's decode error", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        for (const status of ["400", "404", "405", "413", "415", "500", "503"]) {
          const schema = operation.responses[status]?.content?.["application/json"]?.schema
          expect(schema, `${path} ${status}`).toBeDefined()
          const entries: Array<{ $ref?: string; required?: Array<string> }> = schema!.anyOf ?? [schema!]
          for (const entry of entries) {
            if (path === "/health" && status === "503" && entry.$ref === undefined) {
              // A `down` health answer: the report plus the rpc_unavailable envelope.
              expect(entry.required).toEqual(expect.arrayContaining(["status", "indexAgeSec", "error", "next"]))
              continue
            }
            expect(entry.$ref).toMatch(/^#\/components\/schemas\/Error_[a-z_]+$/)
          }
        }
      }
    }
  })

  it("documents how to pay for each paid operation, from the table and the configured prices", () => {
    const paid = (document.paths as Record<string, Record<string, any>>)["/trade/v1/search"]!["post"]
    expect(paid["x-price"]).toEqual({ asset: "USDC", decimals: 6, basis: "per call", amount: "5000" })
    expect(paid.parameters).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: "PAYMENT-SIGNATURE", in: "header", required: false })
    ]))
    expect(Object.keys(paid.responses["200"].headers)).toEqual(["PAYMENT-RESPONSE"])
    // An offer, or (failed or pending settlement) a receipt; never cached.
    expect(Object.keys(paid.responses["402"].headers)).toEqual([
      "PAYMENT-REQUIRED",
      "PAYMENT-RESPONSE",
      "Cache-Control"
    ])
    expect(paid.description).toContain("unknown venue) is answered with its error before any payment is asked for")
    expect(paid.responses["402"].content["application/json"].schema.anyOf).toEqual([
      { $ref: "#/components/schemas/Error_payment_required" },
      expect.objectContaining({ type: "object", properties: {}, additionalProperties: false })
    ])
    expect(paid.responses["502"]).toBeDefined()
    const free = (document.paths as Record<string, Record<string, any>>)["/trade/v1/venues"]!["get"]
    expect(free["x-price"]).toBeUndefined()
    expect(free.responses["402"]).toBeUndefined()
  })
})

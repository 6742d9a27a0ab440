/**
 * Hostile JSON-RPC at the MCP endpoint on the shared devnet: seeded bodies mixing valid envelopes,
 * wrong types, unknown methods and tools, arbitrary arguments and `_meta` payments, batches and
 * garbage. Every answer must be under 500 and carry the edge's `X-Request-Id` and `nosniff`; a JSON
 * answer must be a JSON-RPC message (or the edge's envelope for a body the edge refused).
 */
import { Layer } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Deployment } from "../../layers/Deployment.js"
import { sharedManifest } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"

let server: TestServer

beforeAll(async () => {
  server = await startTestServer(Layer.succeed(Deployment, Deployment.fromManifest(sharedManifest())))
})
afterAll(() => server.close())

const json = fc.jsonValue({ maxDepth: 3 })
const toolCall = fc.record({
  jsonrpc: fc.constantFrom("2.0", "1.0", 2),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
  method: fc.constantFrom("tools/call", "tools/list", "initialize", "ping", "resources/list", "no/such"),
  params: fc.oneof(
    json,
    fc.record({
      name: fc.constantFrom("health", "tradeVenues", "tradeSearch", "openapi", "nothing", ""),
      arguments: fc.oneof(json, fc.record({ query: fc.string({ maxLength: 40 }), limit: json })),
      _meta: fc.oneof(fc.constant(undefined), fc.record({ "x402/payment": json }))
    }, { requiredKeys: ["name"] })
  )
}, { requiredKeys: ["jsonrpc", "method"] })

const body = fc.oneof(
  toolCall.map((call) => JSON.stringify(call)),
  fc.array(toolCall, { maxLength: 3 }).map((calls) => JSON.stringify(calls)),
  json.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 64 })
)

it("any body: no 5xx, the edge's headers, a JSON-RPC answer", async () => {
  await fc.assert(
    fc.asyncProperty(body, fc.constantFrom("application/json", "text/plain"), async (sent, contentType) => {
      const response = await fetch(`${server.baseUrl}/trade/v1/mcp`, {
        method: "POST",
        headers: { "content-type": contentType, accept: "application/json, text/event-stream" },
        body: sent
      })
      expect(response.status, sent).toBeLessThan(500)
      expect(response.headers.get("x-request-id"), sent).toBeTruthy()
      expect(response.headers.get("x-content-type-options"), sent).toBe("nosniff")
      if (response.status === 202) return
      const answer = await readJson(response)
      const messages = Array.isArray(answer) ? answer : [answer]
      for (const message of messages) expect(message.jsonrpc ?? message.next, sent).toBeDefined()
    }),
    { seed: 8413, numRuns: 300 }
  )
})

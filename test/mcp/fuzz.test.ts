/**
 * Hostile JSON-RPC at the MCP endpoint on the shared devnet: seeded bodies mixing valid envelopes,
 * wrong types, unknown methods and tools, arbitrary arguments and `_meta` payments, batches and
 * garbage. Every answer must be under 500 and carry the edge's `X-Request-Id` and `nosniff`, and be
 * what its kind of input calls for: a refused media type 415, a body that is not a JSON-RPC message
 * one parse or invalid-request error, notifications 202, and each request its own answer by id (an
 * unknown method -32601, an unknown tool -32602, a tool's error result the table's code and `next`).
 */
import { Layer } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Deployment } from "../../layers/Deployment.js"
import { errorTable, Next } from "../../schema/ErrorTable.js"
import { sharedManifest } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"

let server: TestServer

beforeAll(async () => {
  server = await startTestServer(Layer.succeed(Deployment, Deployment.make(sharedManifest())))
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

const NEXT: ReadonlyArray<string> = Next.literals
const CODES = new Set(Object.values(errorTable).map((row) => row.code))

const parsed = (sent: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(sent) }
  } catch {
    return { ok: false }
  }
}

type Sent = Record<string, unknown>
const isObject = (value: unknown): value is Sent => typeof value === "object" && value !== null && !Array.isArray(value)
/** A message the JSON-RPC 2.0 transport accepts: version "2.0", a method, an id that is not null. */
const wellFormed = (value: unknown): value is Sent =>
  isObject(value) && value["jsonrpc"] === "2.0" && typeof value["method"] === "string" &&
  (!("id" in value) || typeof value["id"] === "string" || typeof value["id"] === "number") &&
  (!("params" in value) || isObject(value["params"]))
const isRequest = (message: Sent) => "id" in message

/** What a request of this method must be answered with: a result, or a JSON-RPC error code. */
const expectAnswer = (request: Sent, answer: any, tools: ReadonlySet<string>, sent: string) => {
  expect(answer.jsonrpc, sent).toBe("2.0")
  expect(answer.id, sent).toBe(request["id"])
  expect("result" in answer !== "error" in answer, sent).toBe(true)
  const params = request["params"] as Sent | undefined
  switch (request["method"]) {
    case "ping":
      return expect(answer.result, sent).toEqual({})
    case "no/such":
    case "resources/list":
      return expect(answer.error?.code, sent).toBe(-32601)
    case "tools/list":
      return expect(answer.result?.tools?.map((tool: { name: string }) => tool.name).sort(), sent).toEqual(
        [...tools].sort()
      )
    case "tools/call": {
      if (typeof params?.["name"] !== "string" || !tools.has(params["name"]) || "error" in answer) {
        // an unknown tool or arguments the protocol refuses: invalid params
        return expect(answer.error?.code, sent).toBe(-32602)
      }
      expect(Array.isArray(answer.result.content), sent).toBe(true)
      const structured = answer.result.structuredContent
      // a tool's error result carries the table's code and the spec's next
      if (answer.result.isError === true && structured?.next !== undefined) {
        expect(NEXT, sent).toContain(structured.next)
        expect(CODES.has(structured.error?.code), sent).toBe(true)
      }
      return
    }
    default:
      // initialize with arbitrary params: a result, or invalid params
      if ("error" in answer) expect(answer.error.code, sent).toBe(-32602)
  }
}

it("any body: no 5xx, the edge's headers, and the JSON-RPC answer its kind of input calls for", async () => {
  const listed = await fetch(`${server.baseUrl}/trade/v1/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
  })
  const tools = new Set<string>((await readJson(listed)).result.tools.map((tool: { name: string }) => tool.name))
  expect(tools.has("tradeSearch")).toBe(true)

  await fc.assert(
    fc.asyncProperty(body, fc.constantFrom("application/json", "text/plain"), async (sent, contentType) => {
      await answersAsItShould(tools, sent, contentType)
    }),
    { seed: 8413, numRuns: 300 }
  )
})

/** Sends `sent` and checks the answer its kind of input calls for. */
const answersAsItShould = async (tools: ReadonlySet<string>, sent: string, contentType: string): Promise<void> => {
  const response = await fetch(`${server.baseUrl}/trade/v1/mcp`, {
    method: "POST",
    headers: { "content-type": contentType, accept: "application/json, text/event-stream" },
    body: sent
  })
  expect(response.status, sent).toBeLessThan(500)
  expect(response.headers.get("x-request-id"), sent).toBeTruthy()
  expect(response.headers.get("x-content-type-options"), sent).toBe("nosniff")
  const json = parsed(sent)
  const messages = json.ok ? (Array.isArray(json.value) ? json.value : [json.value]) : []
  const answer = response.status === 202 ? undefined : await readJson(response)

  const valid = json.ok && messages.length > 0 && messages.every(wellFormed)
  if (contentType === "text/plain" && (valid || response.status === 415)) {
    // refused for its media type: by the transport (JSON-RPC -32000) or the edge (the envelope)
    expect(response.status, sent).toBe(415)
    if ("jsonrpc" in answer) return expect(answer.error.code, sent).toBe(-32000)
    return expect(answer, sent).toMatchObject({ error: { code: "unsupported_media_type" }, next: "fix_request" })
  }
  if (!valid) {
    // not JSON, an empty batch, or something that is not a JSON-RPC message: one error, no id
    expect(response.status, sent).toBe(400)
    expect(answer.id, sent).toBeNull()
    return expect([-32700, -32600], sent).toContain(answer.error.code)
  }
  const requests = (messages as Array<Sent>).filter(isRequest)
  if (requests.length === 0) return expect(response.status, sent).toBe(202)
  expect(response.status, sent).toBe(200)
  const answers = Array.isArray(answer) ? answer : [answer]
  expect(answers.length, sent).toBe(requests.length)
  requests.forEach((request, i) => expectAnswer(request, answers[i], tools, sent))
}

/**
 * DNS-rebinding protection of the MCP endpoint: a browser page may call it only from an allowed
 * origin. Served offline (no chain is needed to list tools), with the default allow-list and with one
 * set in `MCP_ALLOWED_ORIGINS`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { offlineDeployment, readJson, startTestServer, type TestServer } from "../support/http.js"

let byDefault: TestServer
let configured: TestServer
beforeAll(async () => {
  byDefault = await startTestServer(offlineDeployment, { PUBLIC_URL: "https://trade.example" })
  configured = await startTestServer(offlineDeployment, {
    MCP_ALLOWED_ORIGINS: "https://app.example,http://10.0.0.7:*"
  })
})
afterAll(async () => {
  await byDefault?.close()
  await configured?.close()
})

const listTools = (server: TestServer, origin?: string) =>
  fetch(`${server.baseUrl}/trade/v1/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(origin === undefined ? {} : { origin })
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
  })

const expectServed = async (server: TestServer, origin?: string) => {
  const response = await listTools(server, origin)
  expect(response.status, origin).toBe(200)
  expect((await readJson(response)).result.tools.length, origin).toBeGreaterThan(0)
}

const expectRefused = async (server: TestServer, origin: string) => {
  const response = await listTools(server, origin)
  expect(response.status, origin).toBe(403)
  expect(response.headers.get("x-request-id"), origin).toMatch(/^req_/)
  const answer = await readJson(response)
  expect(answer, origin).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } })
  expect(answer.error.message, origin).toContain("MCP_ALLOWED_ORIGINS")
  expect(answer, origin).not.toHaveProperty("result")
}

describe("Origin", () => {
  it("by default serves no Origin (an agent's HTTP client), the service's own origin and loopback on any port", async () => {
    await expectServed(byDefault)
    await expectServed(byDefault, "https://trade.example")
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:6274", "https://localhost", "http://[::1]:3000"]) {
      await expectServed(byDefault, origin)
    }
  })

  it("by default refuses any other browser origin with 403 and a JSON-RPC error", async () => {
    for (
      const origin of [
        "http://evil.example.com",
        "https://trade.example.evil.com",
        "http://trade.example",
        "https://trade.example:8443",
        "http://localhost.evil.com",
        "null",
        "not a url"
      ]
    ) await expectRefused(byDefault, origin)
  })

  it("MCP_ALLOWED_ORIGINS replaces the default list; a `:*` port accepts any port of that host", async () => {
    await expectServed(configured)
    await expectServed(configured, "https://app.example")
    await expectServed(configured, "http://10.0.0.7:8080")
    for (const origin of ["http://localhost:5173", "http://app.example", "https://10.0.0.7:8080"]) {
      await expectRefused(configured, origin)
    }
  })
})

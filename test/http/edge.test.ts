import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { offlineDeployment, readJson, startTestServer, type TestServer } from "../support/http.js"

// A chain nobody listens on (offlineDeployment): the edge must answer without one.
let server: TestServer
beforeAll(async () => {
  server = await startTestServer(offlineDeployment)
})
afterAll(() => server.close())

const url = (path: string) => `${server.baseUrl}${path}`

describe("HTTP edge", () => {
  it("answers an unknown path with the 404 envelope and a request id", async () => {
    const response = await fetch(url("/trade/v1/nope"))
    expect(response.status).toBe(404)
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/)
    const body = await readJson(response)
    expect(body).toMatchObject({ error: { code: "not_found" }, next: "fix_request" })
    expect(body.error.message).toContain("/trade/v1/nope")
  })

  it("echoes a sane client request id and replaces an unsafe one", async () => {
    const echoed = await fetch(url("/health"), { headers: { "x-request-id": "agent-42.call:7" } })
    expect(echoed.headers.get("x-request-id")).toBe("agent-42.call:7")
    const replaced = await fetch(url("/health"), { headers: { "x-request-id": "bad id <script>" } })
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_/)
  })

  it("refuses a body over the limit with 413 payload_too_large before routing", async () => {
    const response = await fetch(url("/trade/v1/search"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "x".repeat(70 * 1024) })
    })
    expect(response.status).toBe(413)
    expect(response.headers.get("x-request-id")).toBeTruthy()
    expect(await readJson(response)).toMatchObject({ error: { code: "payload_too_large" }, next: "fix_request" })
  })

  it("reports an unreachable RPC as down: 503 with the report and the rpc_unavailable envelope", async () => {
    const response = await fetch(url("/health"))
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("2")
    const body = await readJson(response)
    expect(body).toMatchObject({
      status: "down",
      chainId: 5042,
      network: "eip155:5042",
      version: "0.1.0",
      indexedBlock: null,
      indexAgeSec: null,
      catchingUp: true,
      rulesVersion: expect.stringMatching(/^rules-/),
      error: { code: "rpc_unavailable", message: expect.any(String), hint: expect.any(String) },
      next: "retry",
      retryAfterSec: 2
    })
    expect(body.rpc).toMatchObject({ reachable: false, latencyMs: null, block: null })
  })

  it("lists the deployment's venues with checksummed contract addresses", async () => {
    const response = await fetch(url("/trade/v1/venues"))
    expect(response.status).toBe(200)
    const body = await readJson(response)
    expect(body.network).toBe("eip155:5042")
    expect(body.venues.map((venue: { id: string }) => venue.id)).toEqual(["uniswap-v2", "uniswap-v4"])
    expect(body.venues[1]).toEqual({
      id: "uniswap-v4",
      kind: "uniswap_v4",
      name: "Uniswap v4",
      contracts: {
        poolManager: "0x2222222222222222222222222222222222222222",
        stateView: "0x3333333333333333333333333333333333333333",
        quoter: "0x4444444444444444444444444444444444444444"
      },
      executable: false,
      enabled: true
    })
    expect(body.launchpads).toEqual([])
  })

  it("serves the ERC-8004 registration file naming the API and the MCP endpoint", async () => {
    const response = await fetch(url("/.well-known/agent-registration.json"))
    expect(response.status).toBe(200)
    const body = await readJson(response)
    expect(body.type).toBe("https://eips.ethereum.org/EIPS/eip-8004#registration-v1")
    expect(body.services).toContainEqual({
      name: "MCP",
      endpoint: "http://127.0.0.1:8402/trade/v1/mcp",
      version: "2025-06-18"
    })
    expect(body.x402Support).toBe(true)
  })
})

/**
 * The HTTP API on the shared devnet, as a curl user meets it: status, envelope, `next` and
 * `X-Request-Id` on every answer, good or bad.
 */
import { request as httpRequest } from "node:http"
import { getAddress } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientsFor, contractAddress, sharedManifest, tokenAddress } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"
import { deploymentOf } from "../support/services.js"

const manifest = sharedManifest()
let server: TestServer

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body
  })

beforeAll(async () => {
  // Search's price and payment are the payment tests' subject (test/payment/http*.test.ts); free here.
  server = await startTestServer(deploymentOf(manifest), { PRICE_SEARCH: "0" })
  // The index is ready when health says so.
  for (let attempt = 0; attempt < 300; attempt++) {
    const health = await readJson(await fetch(`${server.baseUrl}/health`))
    if (health.status === "ok") return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("the index did not catch up within 30 s")
})
afterAll(() => server.close())

describe("POST /trade/v1/search", () => {
  it("answers a verified ticker with the canonical token first", async () => {
    const response = await post("/trade/v1/search", JSON.stringify({ query: "weth", limit: 3 }))
    expect(response.status).toBe(200)
    expect(response.headers.get("x-request-id")).toMatch(/^req_/)
    const body = await readJson(response)
    expect(body).toMatchObject({ query: "weth", network: "eip155:5042", resolution: "verified" })
    expect(body.results.length).toBeLessThanOrEqual(3)
    expect(body.results[0].address).toBe(getAddress(tokenAddress(manifest, "WETH")))
    expect(body.results[0].decimals).toBe(18)
  })

  it("finds a token by its address given in lower case, answering it checksummed", async () => {
    const address = tokenAddress(manifest, "WBTC")
    const body = await readJson(await post("/trade/v1/search", JSON.stringify({ query: address.toLowerCase() })))
    expect(body.results[0].address).toBe(getAddress(address))
    expect(body.results[0].decimals).toBe(8)
  })

  it("answers 404 token_not_found when nothing matches", async () => {
    const response = await post("/trade/v1/search", JSON.stringify({ query: "zzqqxx-no-such-token" }))
    expect(response.status).toBe(404)
    expect(response.headers.get("x-request-id")).toBeTruthy()
    expect(await readJson(response)).toMatchObject({ error: { code: "token_not_found" }, next: "fix_request" })
  })

  it("answers malformed JSON with 400 invalid_request", async () => {
    const response = await post("/trade/v1/search", "{\"query\": \"WETH\",", { "x-request-id": "curl-1" })
    expect(response.status).toBe(400)
    expect(response.headers.get("x-request-id")).toBe("curl-1")
    const body = await readJson(response)
    expect(body).toMatchObject({ error: { code: "invalid_request" }, next: "fix_request" })
    expect(body.error.details).toEqual([
      { expected: "a JSON object", code: "invalid_json", path: [], message: expect.any(String) }
    ])
  })

  it("rejects an unknown key with its path", async () => {
    const response = await post("/trade/v1/search", JSON.stringify({ query: "WETH", chain: "arc" }))
    expect(response.status).toBe(400)
    const body = await readJson(response)
    expect(body.next).toBe("fix_request")
    expect(body.error.details).toEqual([
      { expected: "no such key", code: "unrecognized_key", path: ["chain"], message: "is not a known field" }
    ])
  })

  it("rejects a limit outside 1..25", async () => {
    for (const limit of [0, 26]) {
      const response = await post("/trade/v1/search", JSON.stringify({ query: "WETH", limit }))
      expect(response.status).toBe(400)
      const body = await readJson(response)
      expect(body.error.code).toBe("invalid_request")
      expect(body.error.details).toEqual([
        { expected: "1 to 25", code: "invalid_value", path: ["limit"], message: expect.stringContaining(String(limit)) }
      ])
    }
  })

  it("rejects a missing query and an empty body", async () => {
    const missing = await readJson(await post("/trade/v1/search", JSON.stringify({ limit: 2 })))
    expect(missing.error.details).toMatchObject([{ code: "missing", path: ["query"] }])
    const empty = await post("/trade/v1/search", "")
    expect(empty.status).toBe(400)
    expect((await readJson(empty)).error.details).toMatchObject([{ code: "invalid_type", path: [] }])
  })

  it("answers a body larger than the limit with 413 even without content-length", async () => {
    // A chunked upload: the size is only discovered while reading.
    const { status, requestId, body } = await new Promise<{ status: number; requestId: string; body: string }>(
      (resolve, reject) => {
        const request = httpRequest(`${server.baseUrl}/trade/v1/search`, {
          method: "POST",
          headers: { "content-type": "application/json", "transfer-encoding": "chunked" }
        }, (response) => {
          let text = ""
          response.on("data", (chunk) => (text += chunk))
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              requestId: String(response.headers["x-request-id"]),
              body: text
            }))
        })
        request.on("error", reject)
        request.write(`{"query":"${"x".repeat(80 * 1024)}"}`)
        request.end()
      }
    )
    expect(status).toBe(413)
    expect(requestId).toMatch(/^req_/)
    expect(JSON.parse(body)).toMatchObject({ error: { code: "payload_too_large" }, next: "fix_request" })
  })
})

describe("GET /health on the devnet", () => {
  it("shows the head, the indexed block and the lag", async () => {
    const body = await readJson(await fetch(`${server.baseUrl}/health`))
    expect(body.status).toBe("ok")
    expect(body.rpc.reachable).toBe(true)
    expect(body.headBlock).toBeGreaterThan(0)
    expect(body.indexedBlock).toBeGreaterThan(0)
    expect(body.indexLagBlocks).toBeLessThanOrEqual(10)
    expect(body.catchingUp).toBe(false)
  })
})

describe("GET /trade/v1/venues on the devnet", () => {
  it("lists the three Uniswap venues, the launchpad and the forks at the devnet's real contract addresses", async () => {
    const body = await readJson(await fetch(`${server.baseUrl}/trade/v1/venues`))
    const byId = Object.fromEntries(body.venues.map((venue: { id: string }) => [venue.id, venue]))
    expect(Object.keys(byId).sort()).toEqual([
      "fork-v3",
      "launchpad",
      "lowfee-v2",
      "pairfee-v2",
      "pancake-v3",
      "uniswap-v2",
      "uniswap-v3",
      "uniswap-v4"
    ])
    expect(byId["lowfee-v2"].contracts.factory).toBe(getAddress(contractAddress(manifest, "lowFeeV2Factory")))
    expect(byId["pairfee-v2"].contracts.factory).toBe(getAddress(contractAddress(manifest, "pairFeeV2Factory")))
    expect(byId["fork-v3"].contracts.factory).toBe(getAddress(contractAddress(manifest, "forkV3Factory")))
    // The pool deployer is listed beside the factory: it, not the factory, is the pools' CREATE2 deployer.
    expect(byId["pancake-v3"].contracts).toMatchObject({
      factory: getAddress(contractAddress(manifest, "pancakeV3Factory")),
      poolDeployer: getAddress(contractAddress(manifest, "pancakeV3PoolDeployer"))
    })
    expect(byId["launchpad"].contracts.launchpad).toBe(getAddress(contractAddress(manifest, "launchpad")))
    expect(byId["uniswap-v2"].contracts.factory).toBe(getAddress(contractAddress(manifest, "v2Factory")))
    expect(byId["uniswap-v3"].contracts.factory).toBe(getAddress(contractAddress(manifest, "v3Factory")))
    expect(byId["uniswap-v4"].contracts.poolManager).toBe(getAddress(contractAddress(manifest, "v4PoolManager")))
    const client = clientsFor(manifest).public
    for (const venue of body.venues) {
      for (const address of Object.values<string>(venue.contracts)) {
        const code = await client.getCode({ address: address as `0x${string}` })
        expect(code?.length ?? 0, `${venue.id} ${address}`).toBeGreaterThan(2)
      }
    }
    expect(body.hubs.map((hub: { symbol: string }) => hub.symbol)).toContain("USDC")
    expect(body.launchpads).toEqual([
      {
        id: "launchpad",
        name: "Bonding-curve launchpad",
        address: getAddress(contractAddress(manifest, "launchpad")),
        graduatesTo: "uniswap-v2"
      }
    ])
  })
})

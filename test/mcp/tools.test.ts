/**
 * The MCP server from outside, as an agent's host connects to it: the official SDK `Client` over
 * `StreamableHTTPClientTransport` against the real service on a private devnet (payments settle on its
 * chain), paying with payloads signed by `@x402/core` + `@x402/evm`. Checks the tool list, that tool
 * results carry the same bodies as HTTP, what a payment costs and that errors cost nothing.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import type { PaymentRequired } from "@x402/core/types"
import { Layer } from "effect"
import type { PrivateKeyAccount } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Deployment } from "../../layers/Deployment.js"
import { clientsFor, manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"
import { walletFor } from "../support/wallet.js"
import { pay, USDC } from "../support/x402.js"

let devnet: PrivateDevnet
let server: TestServer
let client: Client
let payer: PrivateKeyAccount
const payTo = privateKeyToAccount(generatePrivateKey()).address

const connect = async () => {
  const connected = new Client({ name: "mcp-test", version: "1.0.0" })
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/trade/v1/mcp`)))
  return connected
}

beforeAll(async () => {
  devnet = await startDevnet()
  payer = manifestAccount(devnet.manifest, 4)
  server = await startTestServer(Layer.succeed(Deployment, Deployment.make(devnet.manifest)), { PAY_TO: payTo })
  for (let attempt = 0; attempt < 300; attempt++) {
    if ((await readJson(await fetch(`${server.baseUrl}/health`))).status === "ok") break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  client = await connect()
})
afterAll(async () => {
  await client?.close()
  await server?.close()
  await devnet?.stop()
})

/** Runs `action` and answers its result with how the payer's and `payTo`'s USDC balances changed. */
const balances = async <A>(action: () => Promise<A>) => {
  let result: A | undefined
  const deltas = await walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], async () => {
    result = await action()
  })
  return { result: result as A, deltas }
}

const postSearch = (request: object, payment?: string) =>
  fetch(`${server.baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(payment === undefined ? {} : { "payment-signature": payment }) },
    body: JSON.stringify(request)
  })

/** The HTTP answer to the same search, paid over HTTP with `payment` when given. */
const httpSearch = async (request: object, payment?: string) => readJson(await postSearch(request, payment))

/** What HTTP asks for a search, from its 402. */
const httpOffer = async (request: object): Promise<PaymentRequired> => {
  const unpaid = await postSearch(request)
  expect(unpaid.status).toBe(402)
  return decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!)
}

const textOf = (result: { readonly [key: string]: unknown }) =>
  JSON.parse((result.content as Array<{ text: string }>)[0]!.text)

const offerOf = async (request: Record<string, unknown>): Promise<PaymentRequired> => {
  const unpaid = await client.callTool({ name: "tradeSearch", arguments: request })
  expect(unpaid.isError).toBe(true)
  return unpaid.structuredContent as unknown as PaymentRequired
}

describe("tools", () => {
  it("lists one tool per acting operation with JSON Schemas from the request schemas", async () => {
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(["health", "tradeVenues", "tradeSearch"]))
    expect(names).not.toContain("openapi")
    expect(names).not.toContain("registration")
    const search = tools.find((tool) => tool.name === "tradeSearch")!
    expect(search.inputSchema).toMatchObject({ type: "object", required: ["query"] })
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["query", "limit"]))
    expect(search.outputSchema?.type).toBe("object")
    expect(search.description).toContain("5000 base units")
    expect(search.description).toContain("tradeQuote")
    expect(tools.find((tool) => tool.name === "health")!.description).toContain("Cost: free")
    const receipt = tools.find((tool) => tool.name === "tradeReceipt")!
    expect(receipt.description).toContain("Cost: free")
    expect(receipt.description).toContain("next=retry while pending")
    expect(receipt.inputSchema).toMatchObject({ type: "object", required: ["quoteId", "txHashes"] })
  })

  it("health and tradeVenues answer the HTTP bodies, as structured content and as JSON text", async () => {
    const venues = await client.callTool({ name: "tradeVenues", arguments: {} })
    const httpVenues = await readJson(await fetch(`${server.baseUrl}/trade/v1/venues`))
    expect(venues.isError).toBeFalsy()
    expect(venues.structuredContent).toEqual(httpVenues)
    expect(textOf(venues)).toEqual(httpVenues)
    const health = await client.callTool({ name: "health", arguments: {} })
    expect(health.isError).toBeFalsy()
    expect(health.structuredContent).toMatchObject({ status: "ok" })
    expect(textOf(health)).toEqual(health.structuredContent)
  })

  it("bad arguments get invalid_request with the same details as HTTP, free", async () => {
    const request = { query: "", limit: 99, extra: true }
    const { result } = await balances(() => client.callTool({ name: "tradeSearch", arguments: request }))
    const http = await httpSearch(request)
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toEqual(http)
    expect(result.structuredContent).toMatchObject({ error: { code: "invalid_request" }, next: "fix_request" })
  })

  it("an unknown tool is a JSON-RPC error whose message carries the code once", async () => {
    const call = client.callTool({ name: "tradeNothing", arguments: {} })
    await expect(call).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: unknown tool \"tradeNothing\""
    })
  })
})

describe("payments", () => {
  it("an unpaid paid tool answers isError with the x402 v2 requirements and no next", async () => {
    const unpaid = await client.callTool({ name: "tradeSearch", arguments: { query: "WETH" } })
    expect(unpaid.isError).toBe(true)
    expect(unpaid.structuredContent).toMatchObject({
      x402Version: 2,
      resource: { url: "mcp://tool/tradeSearch" },
      accepts: [{ scheme: "exact", network: "eip155:5042", amount: "5000", asset: USDC, payTo }]
    })
    expect(unpaid.structuredContent).not.toHaveProperty("next")
    // The x402 MCP transport's text form: the same requirements inside an `x402/error` wrapper.
    expect(textOf(unpaid)).toEqual({
      "x402/error": { code: 402, message: "payment required", data: unpaid.structuredContent }
    })
  })

  it("a paid call answers the HTTP body, returns the receipt in _meta and costs exactly the price", async () => {
    const request = { query: "WETH", limit: 3 }
    const { payload } = await pay(payer, await offerOf(request))
    const overHttp = await pay(payer, await httpOffer(request))
    // Each paid call mines its settlement, so one after the other they would answer at two blocks: with
    // mining paused both run at the same block, and one mined block then settles both.
    const { test } = clientsFor(devnet.manifest)
    await test.setAutomine(false)
    const both = balances(() =>
      Promise.all([
        httpSearch(request, overHttp.header),
        client.callTool({ name: "tradeSearch", arguments: request, _meta: { "x402/payment": payload } })
      ])
    )
    try {
      for (const started = Date.now(); (await test.getTxpoolStatus()).pending < 2;) {
        if (Date.now() - started > 10_000) throw new Error("the two settlements never reached the mempool")
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await test.mine({ blocks: 1 })
    } finally {
      await test.setAutomine(true)
    }
    const { deltas, result: [http, result] } = await both
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual(http)
    expect(result._meta?.["x402/payment-response"]).toMatchObject({
      success: true,
      payer: payer.address,
      network: "eip155:5042",
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/)
    })
    // Two paid searches, one over each transport: exactly the price each.
    expect(deltas).toEqual([-10_000n, 10_000n])
  })

  it("a paid call that answers an error is not charged, and its payment stays usable", async () => {
    const request = { query: "NO-SUCH-TOKEN-ANYWHERE" }
    const { payload } = await pay(payer, await offerOf(request))
    const refused = await balances(() =>
      client.callTool({ name: "tradeSearch", arguments: request, _meta: { "x402/payment": payload } })
    )
    expect(refused.result.isError).toBe(true)
    expect(refused.result.structuredContent).toMatchObject({ error: { code: "token_not_found" }, next: "fix_request" })
    expect(refused.result._meta?.["x402/payment-response"]).toBeUndefined()
    expect(refused.deltas).toEqual([0n, 0n])
    const paid = await balances(() =>
      client.callTool({ name: "tradeSearch", arguments: { query: "WETH" }, _meta: { "x402/payment": payload } })
    )
    expect(paid.result.isError).toBeFalsy()
    expect(paid.deltas).toEqual([-5000n, 5000n])
  })

  /** A used payment is refused with the requirements and the reason, no `next`, and nothing charged. */
  const expectReplayRefused = async (request: Record<string, unknown>, payload: unknown) => {
    const replay = await balances(() =>
      client.callTool({ name: "tradeSearch", arguments: request, _meta: { "x402/payment": payload } })
    )
    expect(replay.result.isError).toBe(true)
    expect(replay.result.structuredContent).toMatchObject({ x402Version: 2, error: expect.any(String) })
    expect(replay.result.structuredContent).not.toHaveProperty("next")
    expect(textOf(replay.result)).toEqual({
      "x402/error": {
        code: 402,
        message: (replay.result.structuredContent as { error: string }).error,
        data: replay.result.structuredContent
      }
    })
    expect(replay.deltas).toEqual([0n, 0n])
  }

  it("a payment pays one call: replayed, it is refused with the requirements and nothing is charged", async () => {
    const request = { query: "WETH" }
    const { payload } = await pay(payer, await offerOf(request))
    const first = await client.callTool({ name: "tradeSearch", arguments: request, _meta: { "x402/payment": payload } })
    expect(first.isError).toBeFalsy()
    await expectReplayRefused(request, payload)
  })

  it("a payment used over HTTP cannot pay again over MCP: one gate for both transports", async () => {
    const request = { query: "WETH" }
    const { header, payload } = await pay(payer, await httpOffer(request))
    expect((await postSearch(request, header)).status).toBe(200)
    await expectReplayRefused(request, payload)
  })

  it("two concurrent calls with one payment run and settle once", async () => {
    const request = { query: "WETH" }
    const { payload } = await pay(payer, await offerOf(request))
    const other = await connect()
    const { deltas, result } = await balances(() =>
      Promise.all(
        [client, other].map((c) =>
          c.callTool({ name: "tradeSearch", arguments: request, _meta: { "x402/payment": payload } })
        )
      )
    )
    await other.close()
    expect(result.filter((r) => !r.isError)).toHaveLength(1)
    expect(deltas).toEqual([-5000n, 5000n])
  })
})

describe("transport refusals", () => {
  const mcpUrl = () => `${server.baseUrl}/trade/v1/mcp`
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(mcpUrl(), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body
    })

  it("a GET is 405 with a JSON-RPC error, and the edge's headers", async () => {
    const response = await fetch(mcpUrl(), { headers: { accept: "text/event-stream" } })
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("POST")
    expect(response.headers.get("x-request-id")).toMatch(/^req_/)
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } })
  })

  it("a session id is 400: the server is stateless", async () => {
    const response = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      "mcp-session-id": "abc"
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringMatching(/stateless/) }
    })
  })

  it("bad JSON-RPC gets JSON-RPC errors, never a 5xx", async () => {
    for (const body of ["{not json", "[]", "{}", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "no/such" }), "42"]) {
      const response = await post(body)
      expect(response.status, body).toBeLessThan(500)
      expect(response.headers.get("x-request-id"), body).toBeTruthy()
      const answer = await readJson(response)
      expect(answer.error ?? answer[0]?.error, body).toBeDefined()
    }
  })

  it("the edge's limits hold: an oversized body is 413 with the envelope; a wrong Accept the transport's 406", async () => {
    const huge = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", pad: "x".repeat(2_000_000) }))
    expect(huge.status).toBe(413)
    expect(await readJson(huge)).toMatchObject({ error: { code: "payload_too_large" } })
    const plain = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), { accept: "text/html" })
    expect(plain.status).toBe(406)
    expect(await readJson(plain)).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } })
  })

  it("a call without a session needs no initialize", async () => {
    const response = await post(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }))
    expect(response.status).toBe(200)
    expect(response.headers.get("mcp-session-id")).toBeNull()
    const answer = await readJson(response)
    expect(answer.id).toBe(7)
    expect(answer.result.tools.length).toBeGreaterThanOrEqual(3)
  })
})

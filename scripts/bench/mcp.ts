/**
 * What MCP adds to a call: the same operation over `POST /trade/v1/mcp` with the official SDK client
 * (one connected client, one JSON-RPC POST per call, as an agent's host makes them) and over its plain
 * HTTP route with `fetch`, against the service on a private automining devnet. Free: `tradeVenues` vs
 * `GET /trade/v1/venues`. Paid: `tradeSearch` with a payment in `_meta` vs `POST /trade/v1/search`
 * (paid with `PAYMENT-SIGNATURE` when the route asks for it). Signing is the payer's time and is done
 * before the clock starts; calls alternate so both transports see the same chain and CPU load.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import type { PaymentRequired } from "@x402/core/types"
import type { Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { pay } from "../../test/support/x402.js"
import { figure, latency, ms, timed } from "./lib/report.js"
import { servedService } from "./lib/served.js"

const FREE_CALLS = Number(process.env["MCP_BENCH_FREE"] ?? 300)
const PAID_CALLS = Number(process.env["MCP_BENCH_PAID"] ?? 60)
const WARMUP = 5

const service = await servedService("mcp")
const { manifest } = service
const payer = privateKeyToAccount(manifest.accounts[4]!.privateKey as Hex)

const client = new Client({ name: "bench-mcp", version: "1.0.0" })
await client.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/trade/v1/mcp`)))

const overhead = (label: string, http: { p50: number; p99: number }, mcp: { p50: number; p99: number }) =>
  figure(`${label}: MCP overhead`, `p50 +${ms(mcp.p50 - http.p50)}, p99 +${ms(mcp.p99 - http.p99)}`)

const expectOk = (ok: boolean, what: string) => {
  if (!ok) throw new Error(`bench: ${what} did not succeed`)
}

// Free: venues.
{
  const http: Array<number> = []
  const mcp: Array<number> = []
  for (let i = 0; i < FREE_CALLS + WARMUP; i++) {
    const overHttp = await timed(async () => {
      const response = await fetch(`${service.baseUrl}/trade/v1/venues`)
      expectOk(response.status === 200, "GET /trade/v1/venues")
      await response.json()
    })
    const overMcp = await timed(async () => {
      const result = await client.callTool({ name: "tradeVenues", arguments: {} })
      expectOk(result.isError !== true, "tradeVenues")
    })
    if (i < WARMUP) continue
    http.push(overHttp)
    mcp.push(overMcp)
  }
  overhead(
    "free (venues)",
    latency(`free: GET /trade/v1/venues (${FREE_CALLS})`, http),
    latency(`free: tradeVenues over MCP (${FREE_CALLS})`, mcp)
  )
}

// Paid: search, each call with a fresh authorization signed beforehand.
{
  const request = { query: "WETH", limit: 5 }
  const unpaid = await client.callTool({ name: "tradeSearch", arguments: request })
  const offer = unpaid.structuredContent as unknown as PaymentRequired
  const search = (headers: Record<string, string>) =>
    fetch(`${service.baseUrl}/trade/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(request)
    })
  const probe = await search({})
  await probe.arrayBuffer()
  // Before the HTTP route is gated (another branch) it answers for free: said so in the label.
  const httpPaid = probe.status === 402
  const httpOffer = httpPaid ? decodePaymentRequiredHeader(probe.headers.get("payment-required")!) : undefined
  const http: Array<number> = []
  const mcp: Array<number> = []
  for (let i = 0; i < PAID_CALLS + WARMUP; i++) {
    const signature = httpOffer === undefined ? undefined : (await pay(payer, httpOffer)).header
    const { payload } = await pay(payer, offer)
    const overHttp = await timed(async () => {
      const response = await search(signature === undefined ? {} : { "payment-signature": signature })
      expectOk(response.status === 200, "POST /trade/v1/search")
      await response.json()
    })
    const overMcp = await timed(async () => {
      const result = await client.callTool({
        name: "tradeSearch",
        arguments: request,
        _meta: { "x402/payment": payload }
      })
      expectOk(result.isError !== true && result._meta?.["x402/payment-response"] !== undefined, "paid tradeSearch")
    })
    if (i < WARMUP) continue
    http.push(overHttp)
    mcp.push(overMcp)
  }
  const label = httpPaid ? "paid" : "HTTP unpaid on this build"
  overhead(
    `search (${label})`,
    latency(`search: POST /trade/v1/search, ${label} (${PAID_CALLS})`, http),
    latency(`search: tradeSearch over MCP, paid (${PAID_CALLS})`, mcp)
  )
}

await client.close()
await service.stop()

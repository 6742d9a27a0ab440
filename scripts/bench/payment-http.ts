/**
 * What a payment adds to a paid call end to end, through the service's own HTTP edge on a private
 * automining devnet: a free call (`GET /trade/v1/venues`), an unpaid search (decoded, priced, answered
 * 402 with the offer), a search paid with a signature made beforehand (verify, run, settle), and the
 * whole round a user's `@x402/fetch` makes (402, sign, paid retry). Sequential calls on one keep-alive
 * connection pool.
 */
import { HttpServer } from "@effect/platform"
import { x402Client } from "@x402/core/client"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { Devnet, devnetDefaults } from "../../devnet/Devnet.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { appRoutesWith } from "../../src/App.js"
import { nodeServerOn } from "../../src/http/Server.js"
import { latency } from "./lib/report.js"

const CALLS = 100
const USDC = "0x3600000000000000000000000000000000000000"
const NETWORK = "eip155:5042"
const work = mkdtempSync(join(tmpdir(), "bench-payment-http-"))

const layer = appRoutesWith(Devnet.layerDeployment).pipe(
  Layer.provideMerge(nodeServerOn({ port: 0, host: "127.0.0.1" })),
  Layer.provideMerge(Devnet.layerWithDeployment({
    ...devnetDefaults,
    port: 0,
    verbose: false,
    blockTime: Option.none(),
    manifestPath: join(work, "manifest.json")
  })),
  Layer.provide(
    AppConfig.withSettings({ ...devnetPaymentSettings(), DATA_DIR: join(work, "data"), SAFETY_SCAN: "false" })
  )
)

const timed = async (calls: number, call: (i: number) => Promise<Response>, expected: number) => {
  const samples: Array<number> = []
  for (let i = 0; i < calls + 3; i++) {
    const started = performance.now()
    const response = await call(i)
    await response.arrayBuffer()
    const took = performance.now() - started
    if (response.status !== expected) throw new Error(`expected ${expected}, got ${response.status}`)
    // The first calls warm connections and caches.
    if (i >= 3) samples.push(took)
  }
  return samples
}

const runtime = ManagedRuntime.make(layer)
try {
  const { address, manifest } = await runtime.runPromise(
    Effect.all({
      address: Effect.map(HttpServer.HttpServer, (server) => server.address),
      manifest: Effect.map(Devnet, (devnet) => devnet.manifest)
    })
  )
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const base = `http://127.0.0.1:${address.port}`
  for (let ready = false; !ready;) {
    ready = (await (await fetch(`${base}/health`)).json() as { status: string }).status === "ok"
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const payers = manifest.accounts.slice(0, 4).map((entry) => privateKeyToAccount(entry.privateKey as Hex))
  const clientOf = (i: number) =>
    x402Client.fromConfig({
      schemes: [{ network: NETWORK, client: new ExactEvmScheme(payers[i % payers.length]!) }],
      spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC, maxAmountPerPayment: "10000" }] }
    })
  const search = (headers: Record<string, string> = {}) =>
    fetch(`${base}/trade/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query: "WETH", limit: 3 })
    })

  latency("free call (GET /trade/v1/venues)", await timed(CALLS, () => fetch(`${base}/trade/v1/venues`), 200))
  latency("unpaid search: 402 with the offer", await timed(CALLS, () => search(), 402))

  const offer = decodePaymentRequiredHeader((await search()).headers.get("payment-required") ?? "")
  const signatures = await Promise.all(
    Array.from(
      { length: CALLS + 3 },
      (_, i) => clientOf(i).createPaymentPayload(offer).then(encodePaymentSignatureHeader)
    )
  )
  latency(
    "paid search, signed beforehand",
    await timed(CALLS, (i) => search({ "payment-signature": signatures[i]! }), 200)
  )

  const users = payers.map((_, i) => wrapFetchWithPayment(fetch, clientOf(i)))
  latency(
    "paid search by @x402/fetch (402, sign, retry)",
    await timed(
      30,
      (i) =>
        users[i % users.length]!(`${base}/trade/v1/search`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "WETH", limit: 3 })
        }),
      200
    )
  )
} finally {
  await runtime.dispose()
  rmSync(work, { recursive: true, force: true })
}

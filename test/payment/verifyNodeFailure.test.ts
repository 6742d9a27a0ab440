/**
 * A paid call whose verify meets a failing node does not take the service down. The library's exact
 * verify starts the USDC contract check before anything else and, when it returns early (here: the
 * payer's signature cannot be checked), leaves that check unawaited; were it left to reject, Node's
 * default for an unhandled rejection would end the process (and the entry point's guard would log it).
 * Runs the real entry point (`src/main.ts`) on
 * a real devnet behind the JSON-RPC proxy, which drops every `eth_getCode` while the paid call is made.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http"
import type { ChildProcess } from "node:child_process"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { startServiceProcess } from "../support/serviceProcess.js"
import { tempDir } from "../support/services.js"
import { untilAsync } from "../support/until.js"
import { walletFor } from "../support/wallet.js"
import { pay, USDC } from "../support/x402.js"

let service: ChildProcess | undefined
let devnet: PrivateDevnet | undefined
let proxy: RpcCounter | undefined
afterAll(async () => {
  if (service?.exitCode === null) service.kill("SIGKILL")
  await proxy?.close()
  await devnet?.stop()
})

it("answers a paid call whose verify meets a failing node uncharged, and stays up", async () => {
  const work = tempDir("verify-node")
  devnet = await startDevnet({ manifestPath: join(work, "manifest.json") })
  let failing = false
  proxy = await startRpcCounter(
    devnet.manifest.rpcUrl,
    (call) => failing && call.method === "eth_getCode" ? Promise.reject(new Error("the node fails")) : undefined
  )
  const { baseUrl, child, log } = await startServiceProcess({
    ...devnetPaymentSettings(),
    RPC_URL: proxy.url,
    WS_URL: devnet.manifest.rpcUrl.replace(/^http/, "ws"),
    MANIFEST_PATH: join(work, "manifest.json"),
    DATA_DIR: join(work, "data"),
    SETTLEMENT_MODE: "confirmed",
    SAFETY_SCAN: "false",
    INDEXER_POLL_MS: "50"
  }, (started) => (service = started))
  const healthy = () =>
    untilAsync("the service to be healthy", async () => (await fetch(`${baseUrl}/health`)).status === 200, {
      attempts: 600
    })
  await healthy()

  const search = (headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/trade/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query: "WETH", limit: 1 })
    })
  const payer = manifestAccount(devnet.manifest, 4)
  const offer = decodePaymentRequiredHeader((await search()).headers.get("payment-required") ?? "")
  const { header } = await pay(payer, offer)
  const payTo = offer.accepts[0]!.payTo as `0x${string}`

  const deltas = await walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], async () => {
    failing = true
    const answer = await search({ "payment-signature": header })
    failing = false
    expect(answer.status).toBe(502)
    expect(await answer.json()).toMatchObject({ error: { code: "payment_unavailable" } })
    // An unobserved rejection ends the process on the next turns of the event loop: give it those.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(child.exitCode, log()).toBe(null)
    // Not merely survived by the entry point's guard: no rejection was left unobserved at all.
    expect(log()).not.toContain("rejected with no handler")
    await healthy()
  })
  expect(deltas).toEqual([0n, 0n])
})

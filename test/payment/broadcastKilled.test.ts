/**
 * The real entry point (`src/main.ts`) in `broadcast` mode, killed (SIGKILL: no shutdown runs) while a
 * payer's served calls have their settlements in the node's pool, unmined, then started again: every
 * settlement lands (no payment lost), and a further call of that payer, which the balance at the head
 * still seems to cover, is not served before its own settlement is mined, so it is refused uncharged
 * once the three earlier ones have taken the money (none served unpaid).
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import { Option } from "effect"
import type { ChildProcess } from "node:child_process"
import { join } from "node:path"
import type { Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, expect, it } from "vitest"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { clientsFor, manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { startServiceProcess } from "../support/serviceProcess.js"
import { tempDir } from "../support/services.js"
import { untilAsync } from "../support/until.js"
import { walletFor } from "../support/wallet.js"
import { pay, USDC } from "../support/x402.js"

let service: ChildProcess | undefined
let devnet: PrivateDevnet | undefined
afterAll(async () => {
  if (service?.exitCode === null) service.kill("SIGKILL")
  await devnet?.stop()
})

it("killed with served settlements unmined, started again: all land, nothing served unpaid", async () => {
  const work = tempDir("broadcast-killed")
  devnet = await startDevnet({ manifestPath: join(work, "manifest.json"), blockTime: Option.some(0.5) })
  const manifest = devnet.manifest
  const start = async () => {
    const started = await startServiceProcess({
      ...devnetPaymentSettings(),
      RPC_URL: manifest.rpcUrl,
      MANIFEST_PATH: join(work, "manifest.json"),
      DATA_DIR: join(work, "data"),
      SETTLEMENT_MODE: "broadcast",
      SAFETY_SCAN: "false"
    }, (child) => (service = child))
    await untilAsync("the service to be healthy", async () => (await fetch(`${started.baseUrl}/health`)).ok, {
      attempts: 600
    })
    return started
  }
  const search = (baseUrl: string, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/trade/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query: "WETH", limit: 1 })
    })

  const first = await start()
  const offer = decodePaymentRequiredHeader((await search(first.baseUrl)).headers.get("payment-required") ?? "")
  const price = BigInt(offer.accepts[0]!.amount)
  const payTo = offer.accepts[0]!.payTo as Hex
  // Three calls' worth.
  const payer = privateKeyToAccount(generatePrivateKey())
  await walletFor(manifest, manifestAccount(manifest, 1)).transfer(USDC, payer.address, 3n * price)
  const headers = await Promise.all(Array.from({ length: 4 }, async () => (await pay(payer, offer)).header))
  const { public: chain, test } = clientsFor(manifest)

  const deltas = await walletFor(manifest, payer).deltas(USDC, [payer.address, payTo], async () => {
    await test.setIntervalMining({ interval: 0 })
    const served: Array<Hex> = []
    for (const header of headers.slice(0, 3)) {
      const answer = await search(first.baseUrl, { "payment-signature": header })
      expect(answer.status).toBe(200)
      served.push(decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "").transaction as Hex)
    }
    first.child.kill("SIGKILL")
    await first.exited

    const second = await start()
    // The head still shows the whole balance: the fourth call must wait for its own settlement.
    const fourth = search(second.baseUrl, { "payment-signature": headers[3]! })
    await new Promise((resolve) => setTimeout(resolve, 500))
    await test.setIntervalMining({ interval: 1 })
    const refused = await fourth
    expect(refused.status).toBe(402)
    for (const transaction of served) {
      expect((await chain.waitForTransactionReceipt({ hash: transaction, timeout: 20_000 })).status).toBe("success")
    }
    second.child.kill("SIGTERM")
    await second.exited
  })
  expect(deltas).toEqual([-3n * price, 3n * price])
}, 180_000)

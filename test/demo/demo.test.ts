/**
 * `npm run demo` end to end, as a user runs it: the script in its own process against the service's
 * HTTP edge on a private devnet. It must buy, sell back through Permit2, get two passing receipts, and
 * the fee recipient must have received exactly what the demo says it paid. Private, because it moves
 * prices and the agent is the manifest's first account.
 */
import { execFile } from "node:child_process"
import { rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { type Address, erc20Abi } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientsFor, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"
import { deploymentOf } from "../support/services.js"
import { USDC } from "../support/x402.js"

let devnet: PrivateDevnet
let server: TestServer
const payTo = privateKeyToAccount(generatePrivateKey()).address
const manifestPath = join(tmpdir(), `demo-manifest-${process.pid}.json`)

beforeAll(async () => {
  devnet = await startDevnet()
  writeFileSync(manifestPath, JSON.stringify(devnet.manifest))
  server = await startTestServer(deploymentOf(devnet.manifest), { PAY_TO: payTo })
  for (let ready = false; !ready;) {
    ready = (await readJson(await fetch(`${server.baseUrl}/health`))).status === "ok"
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100))
  }
}, 120_000)
afterAll(async () => {
  await server?.close()
  await devnet?.stop()
  rmSync(manifestPath, { force: true })
})

const feeRecipientUsdc = () =>
  clientsFor(devnet.manifest).public.readContract({
    address: USDC as Address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [payTo]
  })

describe("npm run demo", () => {
  it("buys WETH, sells half back through Permit2, passes both receipts and pays exactly what it reports", async () => {
    const before = await feeRecipientUsdc()
    // Asynchronous: the service answering the demo runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
      env: { ...process.env, DEMO_URL: server.baseUrl, MANIFEST_PATH: manifestPath },
      timeout: 90_000
    })
    expect(stdout).toContain("next sign_permit")
    expect(stdout).toMatch(/sign PermitSingle/)
    expect(stdout).toMatch(/swap\/tx: 200, free/)
    expect(stdout.match(/-> pass: delivered/g)).toHaveLength(2)
    expect(stdout).not.toContain("swap_placeholder (")
    const paid = /paid (\d+\.\d+) USDC in all; fee recipient \+(\d+\.\d+) USDC: equal/.exec(stdout)
    expect(paid).not.toBeNull()
    // search 0.005, two quotes at 0.01, two swaps under $1,000 at 0.01
    expect(paid![1]).toBe("0.045")
    expect((await feeRecipientUsdc()) - before).toBe(45_000n)
  }, 120_000)
})

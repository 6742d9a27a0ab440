/**
 * `npm run deploy-router` as an operator runs it, against anvil (a private devnet): it deploys a router
 * whose venue table is the file's, prints its address and, asked to, writes it into the file; the
 * router it deployed executes a plan. It refuses, before sending anything, a file naming a contract
 * that has no code (naming the entry) and a file for another chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { type Address, getAddress, maxUint256, parseUnits } from "viem"
import { roles } from "../../devnet/accounts.js"
import type { Protocol } from "../../devnet/protocol.js"
import { DevnetVenue } from "../../devnet/router.js"
import { devnetVenueFile } from "../../devnet/venues.js"
import type { VenueFile } from "../../schema/VenueFile.js"
import { venueTableMismatch } from "../../schema/VenueTable.js"
import { readVenueTable } from "../../src/execution/DeployedVenueTable.js"
import { type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { type Env, envOf, makePlan, poolStep, sendPlan } from "./support.js"

let devnet: PrivateDevnet
let env: Env
let file: VenueFile
const dir = mkdtempSync(join(tmpdir(), "deploy-router-"))

beforeAll(async () => {
  devnet = await startDevnet()
  env = envOf(devnet.manifest)
  file = devnetVenueFile(devnet.manifest.contracts as unknown as Protocol, devnet.manifest.chainId)
}, 120_000)
afterAll(() => devnet?.stop())

const run = (path: string, ...flags: ReadonlyArray<string>) =>
  promisify(execFile)("npx", ["tsx", "scripts/deploy-router.ts", path, ...flags], {
    env: {
      ...process.env,
      RPC_URL: devnet.manifest.rpcUrl,
      DEPLOYER_PRIVATE_KEY: roles().deployer.privateKey,
      ROUTER_NATIVE_MODE: "deposit"
    }
  }).then(
    ({ stdout }) => ({ ok: true, out: stdout.trim() }),
    (error: { stderr: string }) => ({ ok: false, out: error.stderr.trim() })
  )

const fileAt = (name: string, content: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(content, null, 2))
  return path
}

const nonce = () => env.trader(0).public.getTransactionCount({ address: roles().deployer.address })

describe("npm run deploy-router", () => {
  it("deploys a router for the venue file, prints and writes its address, and that router trades", async () => {
    const path = fileAt("venues.json", file)
    const result = await run(path, "--write")
    expect(result.ok, result.out).toBe(true)
    const router = getAddress(result.out) as Address
    expect(JSON.parse(readFileSync(path, "utf8")).router).toBe(router)
    const trader = env.trader(1)
    expect(venueTableMismatch(file, await readVenueTable(trader.public, router))).toBeUndefined()

    await trader.approve(env.usdc, router, maxUint256)
    const amount = parseUnits("100", 6)
    const step = poolStep(env.manifest, "v2:WETH/USDC", env.usdc, amount)
    expect(step.venue).toBe(DevnetVenue.v2)
    const { event } = await sendPlan(
      trader,
      router,
      makePlan({
        sellToken: env.usdc,
        buyToken: env.token("WETH"),
        recipient: trader.address,
        amountIn: amount,
        steps: [step]
      })
    )
    expect(event.amountIn).toBe(amount)
    expect(event.amountOut).toBeGreaterThan(0n)
  })

  it("refuses a venue whose contract has no code, naming it, before sending anything", async () => {
    const before = await nonce()
    const empty = "0x00000000000000000000000000000000000c0de0"
    const broken = { ...file, venues: file.venues.map((venue, i) => i === 1 ? { ...venue, factory: empty } : venue) }
    const result = await run(fileAt("broken.json", broken))
    expect(result.ok).toBe(false)
    expect(result.out).toBe(`deploy-router: uniswap-v3.factory (${empty}) has no code on chain ${file.chainId}`)
    expect(await nonce()).toBe(before)
  })

  it("refuses a venue file for another chain", async () => {
    const result = await run(fileAt("other.json", { ...file, chainId: 1 }))
    expect(result.ok).toBe(false)
    expect(result.out).toBe(`deploy-router: the RPC is chain ${file.chainId}, the venue file is for chain 1`)
  })
})

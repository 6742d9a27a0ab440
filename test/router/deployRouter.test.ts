/**
 * `npm run deploy-router` as an operator runs it, against anvil (a private devnet): it deploys a router
 * whose venue table is the file's, prints its address and, asked to, writes it into the file; the
 * router it deployed executes a plan. It refuses, before sending anything and with start-up's own
 * messages, a file naming a contract that has no code, a file for another chain, a wrong init code hash,
 * a fee tier the factory lacks and a Permit2 address holding other code.
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

// Every case starts the script in a new tsx process, some several (the npm case compiles first): on a
// loaded two-core machine a start alone took most of the suite's 60 s default, so the bound is wider.
describe("npm run deploy-router", { timeout: 180_000 }, () => {
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
    expect(result.out).toBe(`deploy-router: venue uniswap-v3: factory ${getAddress(empty)} has no code at the RPC`)
    expect(await nonce()).toBe(before)
  })

  it("refuses a venue file for another chain", async () => {
    const result = await run(fileAt("other.json", { ...file, chainId: 1 }))
    expect(result.ok).toBe(false)
    expect(result.out).toBe(`deploy-router: chainId: the venue file is for chain 1, the RPC's is ${file.chainId}`)
  })

  const withVenue = (id: string, change: (venue: VenueFile["venues"][number]) => object) => ({
    ...file,
    venues: file.venues.map((venue) => venue.id === id ? change(venue) : venue)
  })

  // Each refused with start-up's own message (test/venues/checks.test.ts), before anything is sent.
  it("refuses a wrong init code hash, a fee tier the factory lacks and a wrong Permit2, sending nothing", async () => {
    const before = await nonce()
    const v2 = file.venues.find((venue) => venue.id === "uniswap-v2")
    const wrongHash = await run(
      fileAt("hash.json", withVenue("uniswap-v2", (venue) => ({ ...venue, pairInitCodeHash: `0x${"ab".repeat(32)}` })))
    )
    expect(wrongHash.ok).toBe(false)
    expect(wrongHash.out).toMatch(/^deploy-router: venue uniswap-v2: pairInitCodeHash 0xab(ab)+ is wrong: /)
    expect(wrongHash.out).toContain(`hashes to ${v2?.family === "v2" && v2.pairInitCodeHash}`)

    const wrongTier = await run(
      fileAt(
        "tier.json",
        withVenue("uniswap-v3", (venue) => ({ ...venue, feeTiers: [{ fee: 2500, tickSpacing: 50 }] }))
      )
    )
    expect(wrongTier.ok).toBe(false)
    expect(wrongTier.out).toMatch(/^deploy-router: venue uniswap-v3: fee tier 2500 has tick spacing 0 at the factory/)

    const notPermit2 = getAddress(devnet.manifest.contracts["v2Factory"]!)
    const wrongPermit2 = await run(fileAt("permit2.json", { ...file, permit2: notPermit2 }))
    expect(wrongPermit2.ok).toBe(false)
    expect(wrongPermit2.out).toMatch(new RegExp(`^deploy-router: permit2: the code at ${notPermit2} is not Permit2`))

    expect(await nonce()).toBe(before)
  })

  it("npm run --silent deploy-router --json: one JSON line on stdout, the router or the refusal", async () => {
    const npm = (path: string) =>
      promisify(execFile)("npm", ["run", "--silent", "deploy-router", "--", path, "--json"], {
        env: {
          ...process.env,
          RPC_URL: devnet.manifest.rpcUrl,
          DEPLOYER_PRIVATE_KEY: roles().deployer.privateKey,
          ROUTER_NATIVE_MODE: "deposit"
        }
      }).then(
        ({ stdout }) => ({ ok: true, stdout }),
        (error: { stdout: string }) => ({ ok: false, stdout: error.stdout })
      )
    const deployed = await npm(fileAt("json.json", file))
    expect(deployed.ok).toBe(true)
    const answer = JSON.parse(deployed.stdout)
    expect(deployed.stdout).toBe(`${JSON.stringify(answer)}\n`)
    expect(answer).toEqual({
      router: getAddress(answer.router),
      chainId: file.chainId,
      venues: file.venues.map((venue) => venue.id)
    })
    const refused = await npm(fileAt("json-other.json", { ...file, chainId: 1 }))
    expect(refused.ok).toBe(false)
    expect(JSON.parse(refused.stdout)).toEqual({
      refused: `chainId: the venue file is for chain 1, the RPC's is ${file.chainId}`
    })
  })
})

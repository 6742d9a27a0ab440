/**
 * The operator's path of README "Running on Arc", as a test: a chain the service did not create (the
 * devnet, started as `npm run devnet` starts it) gains a venue its venue file does not have, a fresh
 * Uniswap v2 factory with a seeded USDC/WETH pair. The operator adds it to a copy of the file, runs
 * `npm run deploy-router` (its own process) and starts the service (its own process, as `npm start`
 * does) with exactly the settings the README lists. A taker then searches, quotes, swaps, sends the
 * transactions with viem and gets a passing receipt, every hop on the new venue.
 */
import { wrapFetchWithPayment } from "@x402/fetch"
import { Option } from "effect"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { type Address, getAddress, keccak256, parseAbi, parseEther, parseUnits } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { roles } from "../../devnet/accounts.js"
import { loadArtifact } from "../../devnet/Artifacts.js"
import {
  clientsFor,
  devnetOperator,
  freshAccount,
  manifestAccount,
  type PrivateDevnet,
  startDevnet,
  tokenAddress
} from "../support/devnet.js"
import { readJson } from "../support/http.js"
import { walletFor } from "../support/wallet.js"
import { payerClient, USDC } from "../support/x402.js"

const dir = mkdtempSync(join(tmpdir(), "operator-"))
const devnetVenues = join(dir, "devnet-venues.json")
const operatorVenues = join(dir, "venues.json")
const manifestPath = join(dir, "manifest.json")
const VENUE = "operator-v2"

let devnet: PrivateDevnet
let service: ChildProcess | undefined
let baseUrl = ""
let WETH: Address
let pair: Address
let router: Address

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const pairAbi = parseAbi(["function mint(address to) returns (uint256)"])
const mintAbi = parseAbi(["function mint(address to, uint256 amount)", "function deposit() payable"])

/** A fresh Uniswap v2 factory (the canonical bytecode, its own address) with a seeded USDC/WETH pair. */
const deployNewVenue = async () => {
  const operator = walletFor(devnet.manifest, devnetOperator())
  await operator.test.setBalance({ address: operator.address, value: parseEther("10000000") })
  const factoryArtifact = loadArtifact("UniswapV2Factory")
  const hash = await operator.wallet.deployContract({
    account: operator.account,
    chain: operator.chain,
    abi: factoryArtifact.abi,
    bytecode: factoryArtifact.bytecode,
    args: [operator.address]
  })
  const factory = (await operator.public.waitForTransactionReceipt({ hash })).contractAddress as Address
  await operator.write(factory, factoryArtifact.abi, "createPair", [USDC, WETH])
  pair = await operator.public.readContract({
    address: factory,
    abi: factoryArtifact.abi,
    functionName: "getPair",
    args: [USDC, WETH]
  }) as Address
  // 1,000,000 USDC against 400 WETH: $2,500 a WETH, deep enough for the order below.
  await operator.write(USDC, mintAbi, "deposit", [], parseUnits("1000000", 18))
  await operator.write(WETH, mintAbi, "mint", [operator.address, parseUnits("400", 18)])
  await operator.transfer(USDC, pair, parseUnits("1000000", 6))
  await operator.transfer(WETH, pair, parseUnits("400", 18))
  await operator.write(pair, pairAbi, "mint", [operator.address])
  return factory
}

const run = (command: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  promisify(execFile)(command, args, { env: { ...process.env, ...env }, timeout: 120_000 })

/** The settings of README "Running on Arc", step 4, on this chain: the profile it names for the devnet stand-in. */
const operatorSettings = (port: number) => ({
  RPC_URL: devnet.manifest.rpcUrl,
  VENUES_FILE: operatorVenues,
  MANIFEST_PATH: manifestPath,
  CHAIN_ID: String(devnet.manifest.chainId),
  CHAIN_PROFILE: "devnet",
  PAY_TO: roles().treasury.address,
  SETTLEMENT_PRIVATE_KEY: roles().treasury.privateKey,
  // Not the operator's business, the test's: its own port and data, and no background safety scan.
  PORT: String(port),
  DATA_DIR: join(dir, "data"),
  SAFETY_SCAN: "false"
})

const healthy = async () => {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (service?.exitCode !== null) throw new Error(`the service exited (${service?.exitCode})`)
    const health = await fetch(`${baseUrl}/health`).then(readJson, () => undefined)
    if (health?.status === "ok") return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error("the service did not become healthy")
}

beforeAll(async () => {
  devnet = await startDevnet({ manifestPath, venuesPath: Option.some(devnetVenues) })
  WETH = tokenAddress(devnet.manifest, "WETH")
  const factory = await deployNewVenue()

  // README step 1: the venue file, the devnet's with the new venue appended.
  const file = JSON.parse(readFileSync(devnetVenues, "utf8"))
  file.venues.push({
    id: VENUE,
    name: "Operator's v2",
    family: "v2",
    factory: getAddress(factory),
    pairInitCodeHash: keccak256(loadArtifact("UniswapV2Pair").bytecode),
    fee: { fixed: 3000 }
  })
  writeFileSync(operatorVenues, JSON.stringify(file, null, 2))

  // README step 2: the router for that file, its address printed and written into the file.
  const deployed = await run("npm", ["run", "--silent", "deploy-router", "--", operatorVenues, "--write"], {
    RPC_URL: devnet.manifest.rpcUrl,
    DEPLOYER_PRIVATE_KEY: roles().deployer.privateKey,
    ROUTER_NATIVE_MODE: "deposit"
  })
  // --silent: stdout is the address alone (the compile step's line goes to stderr)
  expect(deployed.stdout).toMatch(/^0x[0-9a-fA-F]{40}\n$/)
  router = getAddress(deployed.stdout.trim())
  expect(JSON.parse(readFileSync(operatorVenues, "utf8")).router).toBe(router)

  // README step 4: `npm start` with the settings; `tsx src/main.ts` is what it runs once contracts compiled.
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  service = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: { ...process.env, ...operatorSettings(port) },
    stdio: ["ignore", "ignore", "inherit"]
  })
  await healthy()
}, 240_000)

afterAll(async () => {
  if (service !== undefined && service.exitCode === null) {
    const exited = new Promise((resolve) => service?.once("exit", resolve))
    service.kill("SIGTERM")
    await exited
  }
  await devnet?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const json = { "content-type": "application/json" }
const paidPost = (path: string, body: object) =>
  wrapFetchWithPayment(fetch, payerClient(manifestAccount(devnet.manifest, 4), "eip155:5042", "5000000"))(
    `${baseUrl}/trade/v1/${path}`,
    { method: "POST", headers: json, body: JSON.stringify(body) }
  )
const post = (path: string, body: object) =>
  fetch(`${baseUrl}/trade/v1/${path}`, { method: "POST", headers: json, body: JSON.stringify(body) })

describe("an operator's new venue, from venue file to receipt", () => {
  it("lists the venue, and a trade searched, quoted, swapped and sent on it passes its receipt", async () => {
    const venues = await readJson(await fetch(`${baseUrl}/trade/v1/venues`))
    expect(JSON.stringify(venues)).toContain(`"${VENUE}"`)

    const search = await readJson(await paidPost("search", { query: "WETH", limit: 1 }))
    const found = search.results[0]
    expect(found.address.toLowerCase()).toBe(WETH.toLowerCase())
    const pools = found.venues.map((entry: any) => [entry.venue, entry.poolId.toLowerCase()])
    expect(pools).toContainEqual([VENUE, pair.toLowerCase()])

    const taker = await freshAccount(devnet.manifest, "50000")
    const takerWallet = walletFor(devnet.manifest, taker)
    // ERC-20 USDC for the swap's fee, which readiness expects the taker to hold.
    await takerWallet.write(USDC, mintAbi, "deposit", [], parseEther("10"))
    const quote = await readJson(
      await paidPost("quote", { sell: USDC, buy: WETH, amount: "2500", taker: taker.address, venues: [VENUE] })
    )
    expect(quote.next, JSON.stringify(quote.safety)).toBe("swap")
    expect(quote.best.executable).toBe(true)
    expect(quote.sell.amountRaw).toBe("2500000000")
    const legs = quote.best.legs
    expect(legs.map((leg: any) => leg.amountInRaw)).toEqual(["2500000000"])
    const hops = legs.flatMap((leg: any) => leg.hops)
    expect(hops.map((hop: any) => [hop.venue, hop.poolId.toLowerCase()])).toEqual([[VENUE, pair.toLowerCase()]])

    const built = await readJson(await paidPost("swap", { quoteId: quote.quoteId, taker: taker.address }))
    expect(built.signatures).toEqual([])
    expect(BigInt(built.amountOutSimulated)).toBe(BigInt(legs[0].amountOutQuotedRaw))
    const clients = clientsFor(devnet.manifest, taker)
    const before = await takerWallet.balanceOf(WETH)
    expect(getAddress(built.transactions.at(-1).to)).toBe(router)
    const hashes = []
    for (const tx of built.transactions) {
      const hash = await clients.wallet.sendTransaction({
        account: taker,
        chain: clients.chain,
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        gas: BigInt(tx.gas)
      })
      expect((await clients.public.waitForTransactionReceipt({ hash })).status).toBe("success")
      hashes.push(hash)
    }
    const delivered = (await takerWallet.balanceOf(WETH)) - before
    expect(delivered).toBe(BigInt(built.amountOutSimulated))

    const receipt = await readJson(await post("receipt", { quoteId: quote.quoteId, txHashes: hashes }))
    expect(receipt).toMatchObject({ result: "pass", delivered: delivered.toString() })
  }, 120_000)
})

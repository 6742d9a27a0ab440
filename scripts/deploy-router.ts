/**
 * `npm run deploy-router [-- <venue file>] [--write] [--json]`: deploys the service's router
 * (contracts/router/TradeRouter.sol) for a venue file on any chain and prints its address. The router's
 * venue table is the file's venues in file order (schema/VenueTable.ts), fixed for its life.
 *
 * Settings (environment): `RPC_URL` (the chain), `DEPLOYER_PRIVATE_KEY` (pays for the deployment; it
 * gains no power over the router, which has no owner), `VENUES_FILE` (when no file is given as an
 * argument), `ROUTER_NATIVE_MODE` (`none`, default; `same-balance` on Arc, where native value is the
 * USDC balance; `deposit` on the devnet, whose USDC mints from native value).
 *
 * Before sending anything it runs every check `npm start` runs on the file (layers/VenueChecks.ts: chain
 * id, code, Permit2, tick spacings, init code hashes against the factories' first pools, per-pair fee
 * getters) and that USDC has code, and refuses with the same message, so a wrong file never costs a
 * router. After deploying it reads the table back and compares it with the file. `--write` records the
 * address in the file's `router` field; `--json` prints `{"router":…}` or `{"refused":…}` on stdout.
 */
import { Effect, Either, Logger, Schema } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { type Address, createPublicClient, createWalletClient, defineChain, getAddress, type Hex, http } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { loadArtifact } from "../devnet/Artifacts.js"
import { NativeMode, type NativeModeCode, routerConfigOf } from "../devnet/router.js"
import { ChainRpc } from "../layers/ChainRpc.js"
import { checkVenueFile } from "../layers/VenueChecks.js"
import { USDC_ADDRESS } from "../schema/Chain.js"
import { VenueFile } from "../schema/VenueFile.js"
import { venueTableMismatch } from "../schema/VenueTable.js"
import { readVenueTable } from "../src/execution/DeployedVenueTable.js"

const args = process.argv.slice(2)
const asJson = args.includes("--json")

const fail = (message: string): never => {
  if (asJson) console.log(JSON.stringify({ refused: message }))
  else console.error(`deploy-router: ${message}`)
  process.exit(1)
}

const setting = (name: string): string => process.env[name] ?? fail(`${name} is not set`)

const nativeModes: Readonly<Record<string, NativeModeCode>> = {
  "none": NativeMode.none,
  "deposit": NativeMode.deposit,
  "same-balance": NativeMode.sameBalance
}

/** Start-up's checks, their warnings (a factory with no pool yet) on stderr, never on stdout. */
const checked = (rpcUrl: string, file: VenueFile, chainId: number) =>
  Effect.runPromise(
    checkVenueFile(ChainRpc.make({ rpcUrl, chainId }), file, { chainId, startBlock: 0 }).pipe(
      Effect.either,
      Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)))
    )
  )

const main = async () => {
  const write = args.includes("--write")
  const path = args.find((arg) => !arg.startsWith("--")) ?? setting("VENUES_FILE")
  const mode = process.env["ROUTER_NATIVE_MODE"] ?? "none"
  const nativeMode = nativeModes[mode] ?? fail(`ROUTER_NATIVE_MODE must be none, deposit or same-balance, not ${mode}`)
  const json: unknown = JSON.parse(readFileSync(path, "utf8"))
  const decoded = Schema.decodeUnknownEither(VenueFile)(json)
  if (decoded._tag === "Left") return fail(`${path} is not a venue file: ${decoded.left.message}`)
  const file = decoded.right
  const rpcUrl = setting("RPC_URL")
  const transport = http(rpcUrl)
  const account = privateKeyToAccount(setting("DEPLOYER_PRIVATE_KEY") as Hex)
  const client = createPublicClient({ transport })
  const chainId = await client.getChainId()

  const refusal = await checked(rpcUrl, file, chainId)
  if (Either.isLeft(refusal)) return fail(refusal.left.message)
  const usdc = await client.getCode({ address: USDC_ADDRESS })
  if (usdc === undefined || usdc === "0x") fail(`usdc: ${getAddress(USDC_ADDRESS)} has no code at the RPC`)

  const artifact = loadArtifact("TradeRouter")
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "native", symbol: "NATIVE", decimals: 18 },
    rpcUrls: { default: { http: [] } }
  })
  const wallet = createWalletClient({ account, chain, transport })
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [routerConfigOf(file, USDC_ADDRESS, nativeMode)]
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success" || receipt.contractAddress == null) return fail(`the deployment ${hash} reverted`)
  const router = getAddress(receipt.contractAddress) as Address
  const mismatch = venueTableMismatch(file, await readVenueTable(client, router))
  if (mismatch !== undefined) fail(`deployed at ${router}, but ${mismatch}`)
  if (write) writeFileSync(path, `${JSON.stringify({ ...(json as object), router }, null, 2)}\n`)
  console.log(asJson ? JSON.stringify({ router, chainId, venues: file.venues.map((venue) => venue.id) }) : router)
}

await main()

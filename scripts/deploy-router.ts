/**
 * `npm run deploy-router [-- <venue file>] [--write]`: deploys the service's router
 * (contracts/router/TradeRouter.sol) for a venue file on any chain and prints its address. The router's
 * venue table is the file's venues in file order (schema/VenueTable.ts), fixed for its life.
 *
 * Settings (environment): `RPC_URL` (the chain), `DEPLOYER_PRIVATE_KEY` (pays for the deployment; it
 * gains no power over the router, which has no owner), `VENUES_FILE` (when no file is given as an
 * argument), `ROUTER_NATIVE_MODE` (`none`, default; `same-balance` on Arc, where native value is the
 * USDC balance; `deposit` on the devnet, whose USDC mints from native value).
 *
 * Before sending anything it checks that the RPC's chain is the file's `chainId` and that every
 * contract the router will trust (Permit2, USDC and each venue's contracts) has code, naming the first
 * that does not. After deploying it reads the table back and compares it with the file. `--write`
 * records the address in the file's `router` field.
 */
import { Schema } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { type Address, createPublicClient, createWalletClient, defineChain, getAddress, type Hex, http } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { loadArtifact } from "../devnet/Artifacts.js"
import { NativeMode, type NativeModeCode, routerConfigOf } from "../devnet/router.js"
import { USDC_ADDRESS } from "../schema/Chain.js"
import { type VenueEntry, VenueFile } from "../schema/VenueFile.js"
import { venueTableMismatch } from "../schema/VenueTable.js"
import { readVenueTable } from "../src/execution/DeployedVenueTable.js"

const fail = (message: string): never => {
  console.error(`deploy-router: ${message}`)
  process.exit(1)
}

const setting = (name: string): string => process.env[name] ?? fail(`${name} is not set`)

const nativeModes: Readonly<Record<string, NativeModeCode>> = {
  "none": NativeMode.none,
  "deposit": NativeMode.deposit,
  "same-balance": NativeMode.sameBalance
}

/** Every contract of a venue that must exist for the router (and the service) to use it. */
const contractsOf = (venue: VenueEntry): ReadonlyArray<readonly [string, string]> => {
  switch (venue.family) {
    case "v2":
      return [["factory", venue.factory]]
    case "v3":
      return [
        ["factory", venue.factory],
        ...(venue.poolDeployer === undefined ? [] : [["poolDeployer", venue.poolDeployer] as const])
      ]
    case "v4":
      return [["poolManager", venue.poolManager], ["stateView", venue.stateView], ["quoter", venue.quoter]]
    case "launchpad":
      return [["launchpad", venue.launchpad]]
  }
}

const main = async () => {
  const args = process.argv.slice(2)
  const write = args.includes("--write")
  const path = args.find((arg) => !arg.startsWith("--")) ?? setting("VENUES_FILE")
  const mode = process.env["ROUTER_NATIVE_MODE"] ?? "none"
  const nativeMode = nativeModes[mode] ?? fail(`ROUTER_NATIVE_MODE must be none, deposit or same-balance, not ${mode}`)
  const json: unknown = JSON.parse(readFileSync(path, "utf8"))
  const decoded = Schema.decodeUnknownEither(VenueFile)(json)
  if (decoded._tag === "Left") return fail(`${path} is not a venue file: ${decoded.left.message}`)
  const file = decoded.right
  const transport = http(setting("RPC_URL"))
  const account = privateKeyToAccount(setting("DEPLOYER_PRIVATE_KEY") as Hex)
  const client = createPublicClient({ transport })
  const chainId = await client.getChainId()
  if (chainId !== file.chainId) fail(`the RPC is chain ${chainId}, the venue file is for chain ${file.chainId}`)

  const needed: ReadonlyArray<readonly [string, string]> = [
    ["permit2", file.permit2],
    ["usdc", USDC_ADDRESS],
    ...file.venues.flatMap((venue) =>
      contractsOf(venue).map(([role, address]) => [`${venue.id}.${role}`, address] as const)
    )
  ]
  for (const [name, address] of needed) {
    const code = await client.getCode({ address: address as Address })
    if (code === undefined || code === "0x") fail(`${name} (${address}) has no code on chain ${chainId}`)
  }

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
  const router = getAddress(receipt.contractAddress)
  const mismatch = venueTableMismatch(file, await readVenueTable(client, router))
  if (mismatch !== undefined) fail(`deployed at ${router}, but ${mismatch}`)
  if (write) writeFileSync(path, `${JSON.stringify({ ...(json as object), router }, null, 2)}\n`)
  console.log(router)
}

await main()

/**
 * Devnets for tests.
 *
 * - `sharedManifest()`: the suite's shared devnet (started by globalSetup). Read it freely; write to
 *   it only from accounts no other file uses (`freshAccount`), since test files run in parallel.
 * - `startDevnet()`: a private devnet for a file that moves prices, snapshots or reorgs. It loads the
 *   bootstrap cache (well under a second once globalSetup has filled it) and stops with `stop()`
 *   (call it in `afterAll`), or with the Effect scope (`devnetLayer()` for `it.layer`).
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, Exit, Option, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  parseEther,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { inject } from "vitest"
import { roles } from "../../devnet/accounts.js"
import { Devnet } from "../../devnet/Devnet.js"
import { devnetDefaults, type DevnetOptions } from "../../devnet/DevnetConfig.js"
import { type DevnetHandle, startDevnet as start } from "../../devnet/startDevnet.js"
import type { Manifest } from "../../schema/Manifest.js"

export const sharedManifest = (): Manifest => inject("devnet").manifest

/** Options for a private devnet: any free port, a throwaway manifest, quiet. */
export const testDevnetOptions = (overrides: Partial<DevnetOptions> = {}): DevnetOptions => ({
  ...devnetDefaults,
  port: 0,
  manifestPath: join(tmpdir(), `arc-devnet-${process.pid}-${randomBytes(4).toString("hex")}.json`),
  cacheDir: Option.some(process.env["DEVNET_CACHE_DIR"] ?? ".cache/devnet"),
  verbose: false,
  ...overrides
})

export interface PrivateDevnet {
  readonly manifest: Manifest
  readonly handle: DevnetHandle
  readonly stop: () => Promise<void>
}

const running = new Set<DevnetHandle>()

/** What each private devnet's anvil is doing now: logged for a test whose chain stopped answering. */
export const runningDevnetConditions = (): Array<string> =>
  [...running].map((handle) => `${handle.manifest.rpcUrl}: ${Effect.runSync(handle.anvil.condition)}`)

export const startDevnet = async (overrides: Partial<DevnetOptions> = {}): Promise<PrivateDevnet> => {
  const options = testDevnetOptions(overrides)
  const scope = Effect.runSync(Scope.make())
  const handle = await Effect.runPromise(
    start(options).pipe(
      Scope.extend(scope),
      Effect.provide(NodeContext.layer),
      Effect.onError(() => Scope.close(scope, Exit.void))
    )
  )
  running.add(handle)
  let stopped: Promise<void> | undefined
  const stop = () => (stopped ??= Effect.runPromise(Scope.close(scope, Exit.void)).then(() => {
    running.delete(handle)
    rmSync(options.manifestPath, { force: true })
  }))
  return { manifest: handle.manifest, handle, stop }
}

/** A private devnet as a layer (Devnet + Deployment), for `it.layer` / `Effect.provide`. */
export const devnetLayer = (overrides: Partial<DevnetOptions> = {}) =>
  Devnet.layerWithDeployment(testDevnetOptions(overrides))

// ---- viem clients: tests are users of the chain and talk to it with viem directly ----

export const chainOf = (manifest: Manifest): Chain =>
  defineChain({
    id: manifest.chainId,
    name: "Arc devnet",
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [manifest.rpcUrl] } }
  })

export interface DevnetClients {
  readonly chain: Chain
  readonly public: PublicClient<Transport, Chain>
  readonly test: TestClient<"anvil", Transport, Chain>
  readonly wallet: WalletClient<Transport, Chain, Account | undefined>
}

export const clientsFor = (manifest: Manifest, account?: Account): DevnetClients => {
  const chain = chainOf(manifest)
  const transport = http(manifest.rpcUrl)
  // A local automining chain: poll fast (viem's default of 4 s would dominate every test).
  const pollingInterval = 50
  return {
    chain,
    public: createPublicClient({ chain, transport, cacheTime: 0, pollingInterval }),
    test: createTestClient({ chain, transport, mode: "anvil", pollingInterval }),
    wallet: createWalletClient({ chain, transport, pollingInterval, ...(account === undefined ? {} : { account }) })
  }
}

/**
 * A transaction once the node has it (pooled or mined), polled a bounded while: a broadcast payment's
 * answer names its settlement before sending it.
 */
export const pooled = async (manifest: Manifest, hash: Hex) => {
  const chain = clientsFor(manifest).public
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = await chain.getTransaction({ hash }).catch(() => undefined)
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`${hash} never reached the node`)
}

/** The manifest's account `i` as a viem local account. */
export const manifestAccount = (manifest: Manifest, i: number) => {
  const entry = manifest.accounts[i]
  if (entry === undefined) throw new Error(`manifest has no account ${i}`)
  return privateKeyToAccount(entry.privateKey as Hex)
}

/** The devnet's deployer: owner of the test tokens (it can `mint` DevTokens) and liquidity provider. */
export const devnetOperator = () => privateKeyToAccount(roles().deployer.privateKey)

/** A new account with native USDC only: no other test touches its nonce or balances. */
export const freshAccount = async (manifest: Manifest, nativeUsdc = "1000") => {
  const account = privateKeyToAccount(generatePrivateKey())
  await clientsFor(manifest).test.setBalance({ address: account.address, value: parseEther(nativeUsdc) })
  return account
}

export const tokenAddress = (manifest: Manifest, label: string): Address => {
  const address = manifest.tokens?.[label]
  if (address === undefined) throw new Error(`manifest has no token ${label}`)
  return address as Address
}

export const contractAddress = (manifest: Manifest, role: string): Address => {
  const address = manifest.contracts[role]
  if (address === undefined) throw new Error(`manifest has no contract role ${role}`)
  return address as Address
}

export const poolByLabel = (manifest: Manifest, label: string) => {
  const pool = manifest.pools?.find((p) => p.label === label)
  if (pool === undefined) throw new Error(`manifest has no pool ${label}`)
  return pool
}

/**
 * Permit2 at a non-canonical address, as on a chain where it was not deployed through the deterministic
 * deployer: a second real Permit2 (the same npm creation code, deployed plainly) and a router deployed
 * for a venue file naming it, while the manifest still names the canonical one. Start-up accepts the file,
 * and the Permit2 flow (swap answering `sign_permit`, sign, swap/tx, send, receipt) runs against the
 * file's Permit2 only: the approval, the typed data's domain and the allowance the router spends are all
 * there, and the canonical Permit2 is never touched. A router and a venue file that name different
 * Permit2s refuse the start, naming both.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { type Address, decodeFunctionData, erc20Abi, getAddress, parseAbi } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { PERMIT2_ADDRESS, permit2Artifact } from "../../devnet/npmArtifacts.js"
import { NativeMode, routerConfigOf } from "../../devnet/router.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { checkedDeployment, checkVenueFile } from "../../layers/VenueChecks.js"
import type { Manifest } from "../../schema/Manifest.js"
import type { VenueFile } from "../../schema/VenueFile.js"
import { checkedRouter } from "../../src/execution/RouterCheck.js"
import { routerDevnetWith } from "../router/devnet.js"
import { deploy } from "../router/fixtures.js"
import { hexOf } from "../support/hex.js"
import { indexRuntime, synced } from "../support/services.js"
import { type Harness, operationsOf, takerOn, tradingWith } from "./harness.js"

const permit2Abi = parseAbi([
  "function allowance(address owner, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)"
])

// `router` here is the file's own router, over the devnet's.
const elsewhere = routerDevnetWith(async (env, lp, devnet) => {
  const permit2 = await deploy(lp, permit2Artifact(), [])
  const base = devnet.manifest.venues!
  const router = await deploy(lp, loadArtifact("TradeRouter"), [
    routerConfigOf({ ...base, permit2 }, env.usdc, NativeMode.deposit)
  ])
  const file: VenueFile = { ...base, permit2, router }
  // The manifest's own `permit2` role stays the canonical address: the venue file must win.
  const manifest: Manifest = { ...devnet.manifest, contracts: { ...devnet.manifest.contracts, router }, venues: file }
  const runtime = indexRuntime(manifest)
  await runtime.runPromise(synced)
  const harness: Harness = { devnet: { ...devnet, manifest }, runtime, stop: () => runtime.dispose() }
  return { permit2, router, file, harness, ops: operationsOf(runtime), stop: harness.stop }
}, 180_000)

const { trade } = tradingWith(() => elsewhere.ops)

describe("Permit2 at another address, named by the venue file", () => {
  it("start-up accepts it: it is Permit2 for this chain and address", async () => {
    expect(getAddress(elsewhere.permit2)).not.toBe(getAddress(PERMIT2_ADDRESS))
    const rpc = ChainRpc.make({ rpcUrl: elsewhere.devnet.manifest.rpcUrl, chainId: elsewhere.devnet.manifest.chainId })
    const checked = checkVenueFile(rpc, elsewhere.file, {
      chainId: elsewhere.file.chainId,
      startBlock: elsewhere.devnet.manifest.startBlock
    })
    await expect(Effect.runPromise(checked)).resolves.toBeUndefined()
  })

  it("start-up refuses a router deployed for one Permit2 beside a venue file naming the other, naming both", async () => {
    const { devnet, file, permit2, router } = elsewhere
    const base = devnet.manifest.venues!
    const refusal = (venues: VenueFile) =>
      Effect.runPromise(Effect.exit(Effect.provide(
        Deployment,
        checkedRouter(checkedDeployment(Layer.succeed(Deployment, Deployment.make(devnet.manifest, venues))))
      ))).then((exit) => Exit.isFailure(exit) ? JSON.stringify(exit.cause.toJSON()) : "started")
    // The canonical Permit2 named, the router built for the other one; and the other way round.
    expect(await refusal({ ...base, router })).toContain(
      `router ${getAddress(router)}: it was deployed for Permit2 ${getAddress(permit2)}, the venue file names Permit2 ${
        getAddress(base.permit2)
      }`
    )
    expect(await refusal({ ...file, router: base.router })).toContain(
      `router ${getAddress(base.router!)}: it was deployed for Permit2 ${
        getAddress(PERMIT2_ADDRESS)
      }, the venue file names Permit2 ${getAddress(permit2)}`
    )
    expect(await refusal(file)).toBe("started")
  })

  it("the permit flow approves, signs for and spends through that Permit2 only, receipt pass", async () => {
    const { harness, permit2, router, token, usdc } = elsewhere
    const WETH = token("WETH")
    const taker = await takerOn(harness)
    await trade(taker, { sell: usdc, buy: WETH, amount: "3000" })
    const { built, delivered, quoted } = await trade(taker, { sell: WETH, buy: usdc, amount: "0.5" })
    expect(quoted.readiness?.approval.needs).toBe("approve_and_sign_permit")
    expect(built.next).toBe("sign_permit")
    const approval = decodeFunctionData({ abi: erc20Abi, data: hexOf(built.transactions[0]!.data) })
    expect(approval.functionName).toBe("approve")
    expect(getAddress(approval.args[0] as Address)).toBe(getAddress(permit2))
    expect(built.signatures[0]!.typedData.domain.verifyingContract).toBe(getAddress(permit2))
    expect(delivered).toBe(BigInt(quoted.best.amountOutQuotedRaw))

    const read = (address: Address) =>
      taker.clients.public.readContract({
        address,
        abi: permit2Abi,
        functionName: "allowance",
        args: [taker.address, WETH, router]
      })
    // The permit set the allowance on the file's Permit2 (its nonce used once); the canonical one has none.
    expect((await read(permit2))[2]).toBe(1)
    expect(await read(PERMIT2_ADDRESS)).toEqual([0n, 0, 0])
    const canonicalAllowance = await taker.clients.public.readContract({
      address: WETH,
      abi: erc20Abi,
      functionName: "allowance",
      args: [taker.address, PERMIT2_ADDRESS]
    })
    expect(canonicalAllowance).toBe(0n)
  })
})

/**
 * The owner-power scan kept across blocks (src/safety/powers/OwnerPowers.ts), on a private devnet with
 * a counting proxy between the service and anvil: a new block that wrote nothing of the token or its
 * pair reuses the scan without asking the node anything about them (no storage read of the token, no
 * `eth_getProof`); a block that wrote the token (a holder's transfer) scans it again.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Address } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { manifestAccount, type PrivateDevnet, startDevnet, tokenAddress } from "../support/devnet.js"
import { type RpcCall, type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { checkToken, E6, type SafetyRuntime, safetyRuntime, snapshotOf } from "./safetyHarness.js"

let devnet: PrivateDevnet
let counter: RpcCounter
let manifest: Manifest
let runtime: SafetyRuntime
let lp: Wallet
let token: Address
const calls: Array<RpcCall> = []

beforeAll(async () => {
  devnet = await startDevnet()
  counter = await startRpcCounter(devnet.manifest.rpcUrl, (call) => {
    calls.push(call)
    return undefined
  })
  manifest = { ...devnet.manifest, rpcUrl: counter.url }
  lp = walletFor(devnet.manifest, manifestAccount(devnet.manifest, 2))
  await fundLiquidityProvider(devnet.manifest, lp)
  token = await deployTrap(lp, "TradingGateToken")
  await listWithPair(devnet.manifest, lp, token)
  runtime = safetyRuntime(manifest)
}, 120_000)
afterAll(async () => {
  await runtime?.dispose()
  await counter?.close()
  await devnet?.stop()
})

/** The index at the chain's head once `block` is mined (a fresh snapshot: the follower traced it). */
const indexedAt = async (block: bigint) => {
  await runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(Number(block))))
  return snapshotOf(runtime)
}

/** The calls the node got that read the token's storage, or proved any account. */
const tokenReads = (from: number) =>
  calls.slice(from).filter((call) =>
    call.method === "eth_getProof" ||
    (call.method === "eth_getStorageAt" && String(call.params[0]).toLowerCase() === token.toLowerCase())
  )

describe("the owner-power scan across blocks", () => {
  it("kept while no block writes the token; scanned again after one does", async () => {
    const first = await indexedAt(await lp.public.getBlockNumber())
    let mark = calls.length
    const measured = await checkToken(runtime, first, devnet.manifest, token, 100n * E6)
    expect(measured.flags).toContain("owner_can_stop_sells")
    expect(tokenReads(mark).some((call) => call.method === "eth_getStorageAt")).toBe(true)

    // A block that writes USDC only (the lp's USDC moves), not the token or its pair.
    const usdc = tokenAddress(devnet.manifest, "USDC")
    const other = await lp.transfer(usdc, manifestAccount(devnet.manifest, 3).address, 1n)
    const untouched = await indexedAt(other.blockNumber)
    mark = calls.length
    const kept = await checkToken(runtime, untouched, devnet.manifest, token, 100n * E6)
    expect(kept.scope.block).toBe(Number(other.blockNumber))
    expect(kept.powers).toEqual(measured.powers)
    expect(tokenReads(mark)).toEqual([])

    // A holder's transfer writes the token's balances: it is scanned again.
    const moved = await lp.transfer(token, manifestAccount(devnet.manifest, 4).address, 1n)
    const written = await indexedAt(moved.blockNumber)
    mark = calls.length
    const again = await checkToken(runtime, written, devnet.manifest, token, 100n * E6)
    expect(tokenReads(mark).some((call) => call.method === "eth_getStorageAt")).toBe(true)
    expect(tokenReads(mark).some((call) => call.method === "eth_getProof")).toBe(false)
    expect(again.flags).toContain("owner_can_stop_sells")
  })
})

/**
 * The owner-power scan kept across blocks (src/safety/powers/OwnerPowers.ts), on a private devnet with
 * a counting proxy between the service and anvil: a new block that wrote nothing of the token or its
 * pair reuses the scan without asking the node anything about them (no storage read of the token, no
 * `eth_getProof`); a block that wrote the token (a holder's transfer) scans it again. A route through a
 * v3 pool likewise, on the pool and its position manager: an NFT's transfer (a write to the manager
 * only) is seen, and a rollback to another block of the same number reads the route again, positions
 * minted in the new block included; so does the verdict's own cache, kept per block.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type Address, maxUint256 } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import type { Manifest } from "../../schema/Manifest.js"
import type { OwnerPower } from "../../schema/Token.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { Indexer } from "../../src/indexer/Indexer.js"
import { SafetyCheck } from "../../src/safety/check/SafetyCheck.js"
import { OwnerPowers } from "../../src/safety/powers/OwnerPowers.js"
import { deployPositionManager, FULL_RANGE, nftAbi, v3Listing, v4Listing } from "../support/concentrated.js"
import {
  clientsFor,
  contractAddress,
  manifestAccount,
  type PrivateDevnet,
  startDevnet,
  tokenAddress
} from "../support/devnet.js"
import { addressOf } from "../support/hex.js"
import { type RpcCall, type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import {
  bestPath,
  checkToken,
  E6,
  type SafetyRuntime,
  safetyRuntime,
  type Snapshot,
  snapshotOf
} from "./safetyHarness.js"

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

describe("the route's powers through v3 and v4 pools across blocks", () => {
  /** The powers over `coin` and its v3 route at `block`, on the pools of `snapshot`. */
  const powersAt = (coin: Address, snapshot: Snapshot, block: bigint) =>
    runtime.runPromise(Effect.flatMap(OwnerPowers, (powers) =>
      powers.of({
        token: addressOf(coin),
        path: bestPath(devnet.manifest, snapshot.market, coin, 100n * E6),
        block,
        pools: snapshot.market.pool
      })))
  /** The whole verdict at `block` (its cache too is per block within one epoch of the index). */
  const verdictAt = (coin: Address, snapshot: Snapshot, block: bigint) =>
    runtime.runPromise(Effect.flatMap(SafetyCheck, (safety) =>
      safety.check({
        token: addressOf(coin),
        path: bestPath(devnet.manifest, snapshot.market, coin, 100n * E6),
        amountInUsdc: 100n * E6,
        block,
        pools: snapshot.market.pool
      })))
  const removable = (found: { readonly powers?: ReadonlyArray<OwnerPower> | undefined }, pool: Address) =>
    found.powers?.find((p) => p.flag === "liquidity_removable" && p.poolId?.toLowerCase() === pool.toLowerCase())
  /** The calls the node got that read the pool's or its position manager's state or logs. */
  const routeReads = (from: number, contracts: ReadonlyArray<Address>) => {
    const watched = new Set(contracts.map((c) => c.toLowerCase()))
    return calls.slice(from).filter((call) => {
      const [first] = call.params as ReadonlyArray<{ to?: string; address?: string | ReadonlyArray<string> }>
      const targets = [first?.to, ...[first?.address ?? []].flat()].map((a) => a?.toLowerCase())
      return (call.method === "eth_call" || call.method === "eth_getLogs") && targets.some((a) => watched.has(a!))
    })
  }

  it("kept while neither the pool nor its manager is written; an NFT's transfer and a rollback read it again", async () => {
    const { manifest } = devnet
    const coin = await deployTrap(lp, "OpenMintToken")
    const { pool, npm, mint } = await v3Listing(manifest, lp, coin)
    const owned = await mint(FULL_RANGE, 50_000, lp.address)
    const first = await indexedAt(owned.block)
    const measured = await powersAt(coin, first, owned.block)
    expect(removable(measured, pool)?.caller).toBe(lp.address)
    expect(removable(measured, pool)?.shareBps).toBe(10_000)

    // A block that writes neither the pool nor the manager: kept, nothing read of either.
    const usdc = tokenAddress(manifest, "USDC")
    const other = await lp.transfer(usdc, manifestAccount(manifest, 3).address, 1n)
    const untouched = await indexedAt(other.blockNumber)
    let mark = calls.length
    const kept = await powersAt(coin, untouched, other.blockNumber)
    expect(kept.powers).toEqual(measured.powers)
    expect(routeReads(mark, [pool, npm])).toEqual([])

    // The NFT changes hands: a write to the manager, none to the pool. The new owner is named.
    const holder = manifestAccount(manifest, 5).address
    const moved = await lp.write(npm, nftAbi, "transferFrom", [lp.address, holder, owned.tokenId])
    const written = await indexedAt(moved.blockNumber)
    mark = calls.length
    expect(removable(await powersAt(coin, written, moved.blockNumber), pool)?.caller).toBe(holder)
    expect(routeReads(mark, [pool, npm]).length).toBeGreaterThan(0)

    // Block N adds to the holder's position (a write to the pool: the route is read through N); then the
    // chain is rolled back and another block N mints a larger position for a third owner. Asked at N
    // again, after the index followed the rollback: the third owner, from the new block's own logs, not
    // the abandoned block's answer nor its positions.
    const { test } = clientsFor(manifest)
    const fork = await test.snapshot()
    const tokenFirst = BigInt(coin) < BigInt(usdc)
    const [tokens, dollars] = [1_000n * 10n ** 18n, 1_000n * E6]
    const abandoned = await lp.write(npm, loadArtifact("NonfungiblePositionManager").abi, "increaseLiquidity", [{
      tokenId: owned.tokenId,
      amount0Desired: tokenFirst ? tokens : dollars,
      amount1Desired: tokenFirst ? dollars : tokens,
      amount0Min: 0n,
      amount1Min: 0n,
      deadline: maxUint256
    }])
    const before = await indexedAt(abandoned.blockNumber)
    expect(removable(await powersAt(coin, before, abandoned.blockNumber), pool)?.caller).toBe(holder)
    expect(removable(await verdictAt(coin, before, abandoned.blockNumber), pool)?.caller).toBe(holder)
    const rollbacks = await runtime.runPromise(Effect.flatMap(Indexer, (indexer) => indexer.progress))
    await test.revert({ id: fork })
    const third = manifestAccount(manifest, 6).address
    const larger = await mint(FULL_RANGE, 200_000, third)
    expect(larger.block).toBe(abandoned.blockNumber)
    await test.mine({ blocks: 2 })
    const after = await indexedAt(larger.block + 2n)
    const progress = await runtime.runPromise(Effect.flatMap(Indexer, (indexer) => indexer.progress))
    expect(progress.rollbacks).toBeGreaterThan(rollbacks.rollbacks)
    const again = removable(await powersAt(coin, after, larger.block), pool)
    expect(again?.caller).toBe(third)
    expect(again?.shareBps).toBe(Number((larger.liquidity * 10_000n) / (larger.liquidity + owned.liquidity)))
    expect(removable(await verdictAt(coin, after, larger.block), pool)).toEqual(again)
  })
  it("through a v4 pool: an NFT's transfer in the v4 PositionManager (no write to the PoolManager) is seen", async () => {
    const { manifest } = devnet
    const coin = await deployTrap(lp, "OpenMintToken")
    const { id, key } = await v4Listing(manifest, lp, coin)
    const manager = await deployPositionManager(manifest, lp)
    const owned = await manager.mint(key, FULL_RANGE, 50_000_000_000_000_000n, lp.address)
    const first = await indexedAt(owned.block)
    expect(removable(await powersAt(coin, first, owned.block), id as Address)?.caller).toBe(lp.address)

    const usdc = tokenAddress(manifest, "USDC")
    const other = await lp.transfer(usdc, manifestAccount(manifest, 3).address, 1n)
    const untouched = await indexedAt(other.blockNumber)
    const mark = calls.length
    expect(removable(await powersAt(coin, untouched, other.blockNumber), id as Address)?.caller).toBe(lp.address)
    expect(routeReads(mark, [manager.address, contractAddress(manifest, "v4StateView")])).toEqual([])

    const holder = manifestAccount(manifest, 5).address
    const moved = await lp.write(manager.address, nftAbi, "transferFrom", [lp.address, holder, owned.tokenId])
    const written = await indexedAt(moved.blockNumber)
    expect(removable(await powersAt(coin, written, moved.blockNumber), id as Address)?.caller).toBe(holder)
  })
})

/**
 * `liquidity_removable` over concentrated liquidity (src/safety/powers/Positions.ts): honest tokens
 * (OpenMintToken) listed against USDC in a v3 pool through the NonfungiblePositionManager and in v4
 * pools through v4-periphery's PositionManager and v4-core's liquidity helper. The share is the owner's
 * liquidity in range over the pool's active liquidity, and the owner is the NFT's; an NFT sent to a
 * burn address takes its position out of anyone's reach.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import type { Address } from "viem"
import type { OwnerPower } from "../../schema/Token.js"
import {
  above,
  DEAD,
  deployPositionManager,
  FULL_RANGE,
  helperMint,
  nftAbi,
  v3Listing,
  v4Listing
} from "../support/concentrated.js"
import { freshAccount, manifestAccount, tokenAddress } from "../support/devnet.js"
import { deployTrap, fundLiquidityProvider } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { answerOf, harnessPerFile } from "../swap/harness.js"

const { harness, ops } = harnessPerFile()
let lp: Wallet
let other: Address
let USDC: Address

beforeAll(async () => {
  const { manifest } = harness.devnet
  USDC = tokenAddress(manifest, "USDC")
  lp = walletFor(manifest, manifestAccount(manifest, 2))
  other = (await freshAccount(manifest)).address
  await fundLiquidityProvider(manifest, lp)
}, 120_000)

const removableOf = async (token: Address, poolId: string): Promise<OwnerPower | undefined> => {
  const quoted = answerOf(await ops.quote({ sell: USDC, buy: token, amount: "100" }))
  expect(quoted.routes.flatMap((route) => route.hops.map((hop) => hop.poolId.toLowerCase())))
    .toContain(poolId.toLowerCase())
  return quoted.safety?.powers?.find((p) =>
    p.flag === "liquidity_removable" && p.poolId?.toLowerCase() === poolId.toLowerCase()
  )
}

const shareOf = (held: bigint, total: bigint) => Number((held * 10_000n) / total)

describe("v3 positions", () => {
  it("the NFT owner's share of the liquidity in range; none once its NFT is burnt", async () => {
    const { manifest } = harness.devnet
    const token = await deployTrap(lp, "OpenMintToken")
    const { pool, npm, at, mint } = await v3Listing(manifest, lp, token)
    const kept = await mint(FULL_RANGE, 50_000, lp.address)
    const small = await mint(FULL_RANGE, 2_000, other)
    const idle = await mint(above(at.tick), 20_000, lp.address)
    expect(idle.liquidity).toBeGreaterThan(0n)
    await ops.indexed(idle.block)

    const before = await removableOf(token, pool)
    expect(before?.caller).toBe(lp.address)
    expect(before?.callerRole).toBe("position owner")
    expect(before?.shareBps).toBe(shareOf(kept.liquidity, kept.liquidity + small.liquidity))

    const burnt = await lp.write(npm, nftAbi, "transferFrom", [lp.address, DEAD, kept.tokenId])
    await ops.indexed(burnt.blockNumber)
    // The other owner's 4 % is no exit an address can take away.
    expect(await removableOf(token, pool)).toBeUndefined()
  })
})

describe("v4 positions", () => {
  it("through a PositionManager: the NFT owner's share; none once its NFT is burnt", async () => {
    const { manifest } = harness.devnet
    const token = await deployTrap(lp, "OpenMintToken")
    const { id, key, at } = await v4Listing(manifest, lp, token)
    const manager = await deployPositionManager(manifest, lp)
    const kept = await manager.mint(key, FULL_RANGE, 50_000_000_000_000_000n, lp.address)
    await manager.mint(key, FULL_RANGE, 2_000_000_000_000_000n, other)
    const idle = await manager.mint(key, above(at.tick), 20_000_000_000_000_000n, lp.address)
    await ops.indexed(idle.block)

    const before = await removableOf(token, id)
    expect(before?.caller).toBe(lp.address)
    expect(before?.callerRole).toBe("position owner")
    expect(before?.shareBps).toBe(shareOf(50n, 52n))

    const burnt = await lp.write(manager.address, nftAbi, "transferFrom", [lp.address, DEAD, kept.tokenId])
    await ops.indexed(burnt.blockNumber)
    expect(await removableOf(token, id)).toBeUndefined()
  })

  it("a position its modifyLiquidity caller holds: the caller, named as a contract", async () => {
    const { manifest } = harness.devnet
    const token = await deployTrap(lp, "OpenMintToken")
    const { id, key } = await v4Listing(manifest, lp, token)
    const { helper, block } = await helperMint(manifest, lp, key, FULL_RANGE, 50_000_000_000_000_000n)
    await ops.indexed(block)

    const removable = await removableOf(token, id)
    expect(removable?.caller).toBe(helper)
    expect(removable?.callerRole).toBe("position owner (a contract: a lock's terms are not read)")
    expect(removable?.shareBps).toBe(10_000)
  })
})

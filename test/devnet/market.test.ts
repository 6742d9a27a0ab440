/**
 * The seeded market on the shared devnet (read only): every pool holds liquidity at realistic prices,
 * all three venue kinds and several v3 fee tiers are present, there are hubs and non-USDC pairs,
 * swap history from several traders spread over hours, and launchpad tokens on and off the curve.
 * About 200 lines: one read of the seeded market, checked from each side a user would look at it.
 */
import { type Address, erc20Abi, type Hex } from "viem"
import { describe, expect, it } from "vitest"
import type { ManifestPool } from "../../schema/Manifest.js"
import { launchpadAbi, v2PairAbi, v3PoolAbi, v4PoolManagerAbi, v4StateViewAbi } from "../support/abis.js"
import { clientsFor, contractAddress, poolByLabel, sharedManifest, tokenAddress } from "../support/devnet.js"

const manifest = sharedManifest()
const { public: client } = clientsFor(manifest)
const pools = manifest.pools ?? []
const fromBlock = BigInt(manifest.startBlock)

/** USD value of USDC held by a pool (v2 pair or v3 pool); for v4 the PoolManager holds every pool. */
const usdcHeld = (pool: ManifestPool) =>
  client.readContract({
    address: tokenAddress(manifest, "USDC"),
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [pool.address as Address]
  })
    .then((raw) => Number(raw) / 1e6)

/** Price of token0 in token1, adjusted for decimals. */
const priceOf = async (pool: ManifestPool): Promise<number> => {
  const decimals = (token: string) =>
    client.readContract({ address: token as Address, abi: erc20Abi, functionName: "decimals" })
  const [d0, d1] = await Promise.all([decimals(pool.token0), decimals(pool.token1)])
  const scale = 10 ** (d0 - d1)
  if (pool.venue === "v2") {
    const [r0, r1] = await client.readContract({
      address: pool.address as Address,
      abi: v2PairAbi,
      functionName: "getReserves"
    })
    return (Number(r1) / Number(r0)) * scale
  }
  const sqrt = pool.venue === "v3"
    ? (await client.readContract({ address: pool.address as Address, abi: v3PoolAbi, functionName: "slot0" }))[0]
    : (await client.readContract({
      address: contractAddress(manifest, "v4StateView"),
      abi: v4StateViewAbi,
      functionName: "getSlot0",
      args: [pool.id as Hex]
    }))[0]
  return (Number(sqrt) / 2 ** 96) ** 2 * scale
}

/** USD price of a pool's first-named token when the other is USDC. */
const usdPrice = async (pool: ManifestPool) => {
  const price = await priceOf(pool)
  const baseIs0 = tokenAddress(manifest, pool.pair[0]).toLowerCase() === pool.token0.toLowerCase()
  return baseIs0 ? price : 1 / price
}

describe("seeded market", () => {
  it("has pools on all three venue kinds, with several v3 fee tiers and hooked v4 pools", () => {
    const venues = new Set(pools.map((p) => p.venue))
    expect([...venues].sort()).toEqual(["v2", "v3", "v4"])
    const wethUsdcV3 = pools.filter((p) => p.label.startsWith("v3:") && p.pair.join("/") === "WETH/USDC")
    expect(wethUsdcV3.map((p) => p.fee).sort()).toEqual([10000, 3000, 500])
    // The fork venues trade the same pair: the 0.2 % v2 fork, the v3 fork's extra 0.25 % tier, the v2.5
    // fork's pair, at the 0.25 % fixed for it when it was created, and PancakeSwap v3.
    const forks = pools.filter((p) => p.pair.join("/") === "WETH/USDC" && !/^v[234]:/.test(p.label))
    expect(forks.map((p) => [p.label, p.fee])).toEqual([
      ["lowfee-v2:WETH/USDC", 2000],
      ["fork-v3:WETH/USDC:2500", 2500],
      ["pairfee-v2:WETH/USDC", 2500],
      ["pancake-v3:WETH/USDC:500", 500]
    ])
    expect(pools.some((p) => p.venue === "v3" && p.fee === 100)).toBe(true)
    const hooked = pools.filter((p) => p.hooks !== null)
    expect(hooked.map((p) => p.hooks)).toEqual(expect.arrayContaining([
      contractAddress(manifest, "dynamicFeeHook"),
      contractAddress(manifest, "swapFeeHook")
    ]))
    expect(hooked.filter((p) => p.fee === null).length).toBeGreaterThanOrEqual(1)
  })

  it("has liquidity in every pool", async () => {
    const stateView = contractAddress(manifest, "v4StateView")
    for (const pool of pools) {
      const liquidity = pool.venue === "v2"
        ? (await client.readContract({
          address: pool.address as Address,
          abi: v2PairAbi,
          functionName: "getReserves"
        }))[0]
        : pool.venue === "v3"
        ? await client.readContract({ address: pool.address as Address, abi: v3PoolAbi, functionName: "liquidity" })
        : await client.readContract({
          address: stateView,
          abi: v4StateViewAbi,
          functionName: "getLiquidity",
          args: [pool.id as Hex]
        })
      expect(liquidity, pool.label).toBeGreaterThan(0n)
    }
  })

  it("prices WETH near $3,000 on every venue, deep enough that splitting a large order pays", async () => {
    const wethPools = pools.filter((p) => p.pair.join("/") === "WETH/USDC")
    expect(wethPools.length).toBeGreaterThanOrEqual(5)
    for (const pool of wethPools) expect(await usdPrice(pool), pool.label).toBeGreaterThan(2_900)
    for (const pool of wethPools) expect(await usdPrice(pool), pool.label).toBeLessThan(3_100)
    expect(await usdcHeld(poolByLabel(manifest, "v2:WETH/USDC"))).toBeGreaterThan(1_000_000)
    expect(await usdcHeld(poolByLabel(manifest, "v3:WETH/USDC:500"))).toBeGreaterThan(1_000_000)
  })

  it("prices the other hubs realistically (WBTC ~$60k, EURC ~$1.08)", async () => {
    const wbtc = await usdPrice(poolByLabel(manifest, "v2:WBTC/USDC"))
    expect(wbtc).toBeGreaterThan(57_000)
    expect(wbtc).toBeLessThan(63_000)
    const eurc = await usdPrice(poolByLabel(manifest, "v3:EURC/USDC:100"))
    expect(eurc).toBeGreaterThan(1.05)
    expect(eurc).toBeLessThan(1.11)
  })

  it("has non-USDC pairs for two-hop and graph routes", () => {
    const labels = pools.map((p) => p.label)
    expect(labels).toEqual(
      expect.arrayContaining(["v2:WETH/WBTC", "v3:WETH/WBTC:500", "v2:DEGEN/WETH", "v2:ORBIT/WETH"])
    )
  })

  it("has a pool too thin to exit", async () => {
    expect(await usdcHeld(poolByLabel(manifest, "v2:THIN/USDC"))).toBeLessThan(200)
  })

  it("carries swap history from several traders over the last hours, on every venue kind", async () => {
    const v2Swaps = await client.getContractEvents({
      abi: v2PairAbi,
      eventName: "Swap",
      address: pools.filter((p) => p.venue === "v2").map((p) => p.address as Address),
      fromBlock
    })
    const v3Swaps = await client.getContractEvents({
      abi: v3PoolAbi,
      eventName: "Swap",
      address: pools.filter((p) => p.venue === "v3").map((p) => p.address as Address),
      fromBlock
    })
    const v4Swaps = await client.getContractEvents({
      abi: v4PoolManagerAbi,
      eventName: "Swap",
      address: contractAddress(manifest, "v4PoolManager"),
      fromBlock
    })
    expect(v2Swaps.length).toBeGreaterThanOrEqual(20)
    expect(v3Swaps.length).toBeGreaterThanOrEqual(10)
    expect(v4Swaps.length).toBeGreaterThanOrEqual(10)
    const traders = new Set(v2Swaps.map((log) => log.args.to))
    expect(traders.size).toBeGreaterThanOrEqual(5)
    const hookedIds = pools.filter((p) => p.hooks !== null).map((p) => p.id)
    expect(v4Swaps.some((log) => hookedIds.includes(log.args.id as string))).toBe(true)

    const stamp = async (blockNumber: bigint) => Number((await client.getBlock({ blockNumber })).timestamp)
    const blocks = [...v2Swaps, ...v3Swaps, ...v4Swaps].map((log) => log.blockNumber)
    const first = await stamp(blocks.reduce((a, b) => (a < b ? a : b)))
    const last = await stamp(blocks.reduce((a, b) => (a > b ? a : b)))
    expect(last - first).toBeGreaterThan(3600)
    expect(Date.now() / 1000 - first).toBeLessThan(24 * 3600)
  })

  it("has launchpad tokens created by their creators, one graduated into its pool, one still on its curve", async () => {
    const launchpad = contractAddress(manifest, "launchpad")
    const created = await client.getContractEvents({
      abi: launchpadAbi,
      eventName: "TokenCreated",
      address: launchpad,
      fromBlock
    })
    const grad = tokenAddress(manifest, "LAUNCH_GRAD")
    const curve = tokenAddress(manifest, "LAUNCH_CURVE")
    const fresh = tokenAddress(manifest, "LAUNCH_FRESH")
    expect(created.map((log) => log.args.token)).toEqual(expect.arrayContaining([grad, curve, fresh]))
    for (const log of created) {
      const creator = await client.readContract({
        address: launchpad,
        abi: launchpadAbi,
        functionName: "creatorOf",
        args: [log.args.token as Address]
      })
      expect(creator).toBe(log.args.creator)
    }
    const graduated = (token: Address) =>
      client.readContract({ address: launchpad, abi: launchpadAbi, functionName: "graduated", args: [token] })
    expect(await graduated(grad)).toBe(true)
    expect(await graduated(curve)).toBe(false)
    const [event] = await client.getContractEvents({
      abi: launchpadAbi,
      eventName: "Graduated",
      address: launchpad,
      fromBlock
    })
    expect(event?.args.pool).toBe(poolByLabel(manifest, "v2:LAUNCH_GRAD/USDC").address)
    const trades = await client.getContractEvents({
      abi: launchpadAbi,
      eventName: "CurveTrade",
      address: launchpad,
      fromBlock
    })
    expect(trades.filter((log) => log.args.token === curve).length).toBeGreaterThanOrEqual(3)
    expect(trades.some((log) => log.args.token === curve && !log.args.isBuy)).toBe(true)
    expect(trades.filter((log) => log.args.token === fresh)).toEqual([])
  })
})

/**
 * The index against the chain, pool by pool, on the shared devnet's seeded market: v2 reserves, v3
 * price, tick, active liquidity and every initialized tick, and the same for v4 through its StateView,
 * all read at the block the index is at. What the pool math prices from is what the pools hold.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, HashMap, Option } from "effect"
import { type Address, type Hex, parseAbi } from "viem"
import type { IndexState } from "../../src/indexer/State.js"
import { clientsFor, contractAddress, sharedManifest } from "../support/devnet.js"
import { hexOf } from "../support/hex.js"
import { indexRuntime, synced } from "../support/services.js"

const manifest = sharedManifest()
const runtime = indexRuntime(manifest)
const client = clientsFor(manifest).public
let state: IndexState

beforeAll(async () => {
  state = await runtime.runPromise(Effect.map(synced, (snapshot) => snapshot.state))
})
afterAll(() => runtime.dispose())

const v2 = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"])
const v3 = parseAbi([
  "function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)",
  "function ticks(int24) view returns (uint128, int128, uint256, uint256, int56, uint160, uint32, bool)"
])
const v4 = parseAbi([
  "function getSlot0(bytes32) view returns (uint160, int24, uint24, uint24)",
  "function getLiquidity(bytes32) view returns (uint128)",
  "function getTickLiquidity(bytes32, int24) view returns (uint128, int128)"
])

const poolOf = (id: string) => {
  const pool = Option.getOrUndefined(HashMap.get(state.pools, hexOf(id)))
  if (pool === undefined) throw new Error(`pool ${id} is not indexed`)
  return pool
}

describe("indexed pools equal the chain", () => {
  const pools = manifest.pools ?? []

  it("knows every seeded pool", () => {
    expect(pools.length).toBeGreaterThan(20)
    // Each pool under its venue's file id: the label's prefix names the fork (`lowfee-v2:`, `fork-v3:`).
    for (const seeded of pools) {
      const prefix = seeded.label.split(":")[0]!
      expect(poolOf(seeded.id).venue).toBe(prefix === seeded.venue ? `uniswap-${seeded.venue}` : prefix)
    }
  })

  it("v2 reserves", async () => {
    const blockNumber = BigInt(state.block)
    for (const seeded of pools.filter((p) => p.venue === "v2")) {
      const pool = poolOf(seeded.id)
      if (pool.kind !== "v2") throw new Error("expected v2")
      const [reserve0, reserve1] = await client.readContract({
        address: seeded.id as Address,
        abi: v2,
        functionName: "getReserves",
        blockNumber
      })
      expect([pool.reserve0, pool.reserve1]).toEqual([reserve0, reserve1])
    }
  })

  it("v3 price, tick, liquidity and ticks", async () => {
    const blockNumber = BigInt(state.block)
    for (const seeded of pools.filter((p) => p.venue === "v3")) {
      const pool = poolOf(seeded.id)
      if (pool.kind !== "v3") throw new Error("expected v3")
      const address = seeded.id as Address
      const [sqrtPriceX96, tick] = await client.readContract({ address, abi: v3, functionName: "slot0", blockNumber })
      const liquidity = await client.readContract({ address, abi: v3, functionName: "liquidity", blockNumber })
      expect({ sqrtPriceX96: pool.sqrtPriceX96, tick: pool.tick, liquidity: pool.liquidity }).toEqual({
        sqrtPriceX96,
        tick,
        liquidity
      })
      expect(pool.ticks.length).toBeGreaterThan(0)
      for (const indexed of pool.ticks) {
        const [gross, net] = await client.readContract({
          address,
          abi: v3,
          functionName: "ticks",
          args: [indexed.tick],
          blockNumber
        })
        expect([indexed.liquidityGross, indexed.liquidityNet]).toEqual([gross, net])
      }
    }
  })

  it("v4 price, tick, fees, liquidity and ticks through the StateView", async () => {
    const blockNumber = BigInt(state.block)
    const view = contractAddress(manifest, "v4StateView")
    for (const seeded of pools.filter((p) => p.venue === "v4")) {
      const pool = poolOf(seeded.id)
      if (pool.kind !== "v4") throw new Error("expected v4")
      const id = seeded.id as Hex
      const [sqrtPriceX96, tick, protocolFee, lpFee] = await client.readContract({
        address: view,
        abi: v4,
        functionName: "getSlot0",
        args: [id],
        blockNumber
      })
      const liquidity = await client.readContract({
        address: view,
        abi: v4,
        functionName: "getLiquidity",
        args: [id],
        blockNumber
      })
      expect({
        sqrtPriceX96: pool.sqrtPriceX96,
        tick: pool.tick,
        liquidity: pool.liquidity,
        protocolFee: pool.protocolFee
      })
        .toEqual({ sqrtPriceX96, tick, liquidity, protocolFee })
      if (!pool.dynamicFee) expect(pool.feePips).toBe(lpFee)
      expect(pool.hooks).toBe(seeded.hooks === null ? null : seeded.hooks.toLowerCase())
      for (const indexed of pool.ticks) {
        const [gross, net] = await client.readContract({
          address: view,
          abi: v4,
          functionName: "getTickLiquidity",
          args: [id, indexed.tick],
          blockNumber
        })
        expect([indexed.liquidityGross, indexed.liquidityNet]).toEqual([gross, net])
      }
    }
  })
})

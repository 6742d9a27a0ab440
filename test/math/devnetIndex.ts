/**
 * The shared devnet as the pool-math tests read it: its index at one block (every chain read below is
 * made at that block, so other test files trading meanwhile do not move the answers), the seeded pools
 * by label, a funded holder whose calls run through `eth_simulateV1`, and reproducible random sizes.
 */
import { afterAll, beforeAll, expect } from "@effect/vitest"
import { Effect, HashMap, Option } from "effect"
import { type Address, type Hex, parseAbi } from "viem"
import type { PrivateKeyAccount } from "viem/accounts"
import type { Manifest } from "../../schema/Manifest.js"
import type { IndexState } from "../../src/indexer/State.js"
import { quoteHop } from "../../src/math/Hop.js"
import type { Pool } from "../../src/math/PoolState.js"
import { clientsFor, type DevnetClients, manifestAccount, poolByLabel, sharedManifest } from "../support/devnet.js"
import { hexOf } from "../support/hex.js"
import { indexRuntime, synced } from "../support/services.js"

type PublicClient = DevnetClients["public"]

export interface DevnetIndex {
  readonly manifest: Manifest
  readonly client: PublicClient
  readonly holder: PrivateKeyAccount
  /** The block the index is at (available once the suite's `beforeAll` ran). */
  readonly blockNumber: () => bigint
  readonly indexed: (label: string) => Pool
  readonly simulate: (
    calls: ReadonlyArray<{ to: Address; data: Hex }>
  ) => Promise<Awaited<ReturnType<PublicClient["simulateCalls"]>>["results"]>
}

export const devnetIndex = (): DevnetIndex => {
  const manifest = sharedManifest()
  const runtime = indexRuntime(manifest)
  const client = clientsFor(manifest).public
  const holder = manifestAccount(manifest, 7)
  let state: IndexState | undefined
  beforeAll(async () => {
    state = await runtime.runPromise(Effect.map(synced, (snapshot) => snapshot.state))
  })
  afterAll(() => runtime.dispose())

  const blockNumber = () => BigInt(state!.block)
  const indexed = (label: string): Pool => {
    const pool = Option.getOrUndefined(HashMap.get(state!.pools, lower(poolByLabel(manifest, label).id)))
    if (pool === undefined) throw new Error(`${label} is not indexed`)
    return pool
  }
  /** Runs calls from the holder in one `eth_simulateV1` block at the index's block. */
  const simulate = async (calls: ReadonlyArray<{ to: Address; data: Hex }>) => {
    const { results } = await client.simulateCalls({
      account: holder.address,
      calls: [...calls],
      blockNumber: blockNumber()
    })
    return results
  }
  return { manifest, client, holder, blockNumber, indexed, simulate }
}

/**
 * exactIn of `amount` must equal what `reference` (the venue's quoter, or a real swap) gives for it;
 * exactOut of half that must be the least input `reference` turns into at least that.
 */
export const expectExactQuotes = async (
  pool: Pool,
  tokenIn: string,
  amount: bigint,
  reference: (amountIn: bigint) => Promise<bigint>
) => {
  const exactIn = quoteHop({ pool, tokenIn: hexOf(tokenIn), side: "exactIn", amount })
  if (exactIn._tag !== "Quoted") throw new Error(`exactIn not quoted: ${exactIn._tag}`)
  expect(exactIn.amountOut).toBe(await reference(amount))
  if (exactIn.amountOut < 2n) return
  const target = exactIn.amountOut / 2n + 1n
  const exactOut = quoteHop({ pool, tokenIn: hexOf(tokenIn), side: "exactOut", amount: target })
  if (exactOut._tag !== "Quoted") throw new Error(`exactOut not quoted: ${exactOut._tag}`)
  expect(exactOut.amountOut).toBeGreaterThanOrEqual(target)
  expect(await reference(exactOut.amountIn)).toBe(exactOut.amountOut)
  expect(await reference(exactOut.amountIn - 1n)).toBeLessThan(target)
}

export const lower = (address: string) => hexOf(address)
/** The index keeps addresses as plain lower-case strings. */
export const addr = (address: string) => address as Address

/** Deterministic log-uniform sizes between `min` and `max`, so a failure reproduces. */
export const sizes = (seed: number, count: number, min: bigint, max: bigint): ReadonlyArray<bigint> => {
  let s = seed
  const span = Math.log(Number(max) / Number(min))
  return Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    const scaled = BigInt(Math.floor(Math.exp((s / 2 ** 31) * span) * 1e6))
    return (min * scaled) / 1_000_000n + BigInt(s % 1000)
  })
}

export const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)"
])

/**
 * The checkpoint written a slice at a time (src/indexer/Codec.ts, layers/CheckpointStore.ts), on a state
 * of thousands of pools, tokens, holders and trades built here: it loads back equal to what was saved,
 * the event loop runs between any two slices, and a file of the
 * older one-value format or a cut-off file is refused without failing, so the index is rebuilt.
 */
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, HashMap, Layer, ManagedRuntime, Option } from "effect"
import { readFileSync, truncateSync, writeFileSync } from "node:fs"
import { serialize } from "node:v8"
import { AppConfig } from "../../layers/AppConfig.js"
import { CheckpointStore } from "../../layers/CheckpointStore.js"
import type { Hex } from "../../schema/Chain.js"
import { Checkpoint } from "../../src/indexer/Checkpoint.js"
import { fromItems } from "../../src/indexer/Chunks.js"
import { storedParts } from "../../src/indexer/Codec.js"
import {
  DAY_SEC,
  emptyState,
  type Holdings,
  type IndexState,
  type TokenFacts,
  type Trade
} from "../../src/indexer/State.js"
import type { Pool } from "../../src/math/PoolState.js"
import { hexOf } from "../support/hex.js"
import { tempDir, testSettings } from "../support/services.js"
import { canonical } from "./compare.js"

const address = (kind: number, i: number) =>
  hexOf(`0x${kind.toString(16).padStart(2, "0")}${i.toString(16).padStart(38, "0")}`)
const TIME = 1_800_000_000

const poolOf = (i: number, token0: Hex, token1: Hex): Pool =>
  i % 3 === 0
    ? {
      kind: "v3",
      id: address(1, i),
      venue: "uniswap-v3",
      token0,
      token1,
      createdBlock: i,
      feePips: 3_000,
      dynamicFee: false,
      protocolFee: 0,
      tickSpacing: 60,
      hooks: null,
      sqrtPriceX96: 2n ** 96n + BigInt(i),
      tick: i % 600,
      liquidity: 10n ** 18n + BigInt(i),
      ticks: Array.from({ length: 1 + i % 7 }, (_, k) => ({
        tick: (k - 3) * 60,
        liquidityNet: BigInt(k - 3) * 10n ** 15n,
        liquidityGross: 10n ** 15n * BigInt(k + 1)
      }))
    }
    : {
      kind: "v2",
      id: address(1, i),
      venue: "uniswap-v2",
      token0,
      token1,
      createdBlock: i,
      feePips: 3_000,
      reserve0: 10n ** 21n + BigInt(i),
      reserve1: 10n ** 9n * BigInt(i + 1)
    }

/** A market of `size` tokens each paired with one hub: a hub with many holders and trades, the rest with few. */
const market = (size: number): IndexState => {
  const hub = address(2, 0)
  const tokens: Array<TokenFacts> = []
  const pools: Array<Pool> = []
  const holdings: Array<readonly [Hex, Holdings]> = []
  const trades: Array<readonly [Hex, ReadonlyArray<Trade>]> = []
  for (let i = 0; i <= size; i++) {
    const token = address(2, i)
    const pool = i === 0 ? undefined : poolOf(i, hub, token)
    if (pool !== undefined) pools.push(pool)
    tokens.push({
      address: token,
      symbol: `T${i}`,
      name: `Token ${i}`,
      decimals: 18,
      metadataOk: true,
      seq: i,
      createdBlock: i,
      createdTime: TIME + i,
      createdLog: 0,
      creator: null,
      launchpad: null,
      graduated: false,
      curve: i % 11 === 0 ? { usdcIn: BigInt(i) * 10n ** 6n, tokensOut: BigInt(i) * 10n ** 18n } : null,
      pools: pool === undefined ? [] : [{ id: pool.id, other: hub }]
    })
    const holders = i === 0 ? size * 3 : 1 + i % 4
    holdings.push([token, {
      balances: HashMap.fromIterable(
        Array.from({ length: holders }, (_, k) => [address(3, k), BigInt(k + 1) * 10n ** 18n] as const)
      ),
      holders,
      complete: i % 2 === 0,
      firstBlock: i,
      firstTime: TIME + i,
      firstLog: 1,
      firstMintTx: i % 2 === 0 ? address(4, i) : null
    }])
    // Two of the hub's trades are older than a day: a checkpoint leaves them out.
    const count = i === 0 ? size * 2 : i % 3
    trades.push([
      token,
      Array.from({ length: count }, (_, k) => ({
        time: TIME + DAY_SEC + (i === 0 && k < 2 ? -DAY_SEC - 10 : k),
        amount: BigInt(k + 1) * 10n ** 17n,
        usdMicro: k % 2 === 0 ? BigInt(k) * 1_000_000n : null,
        trader: address(3, k)
      }))
    ])
  }
  return {
    ...emptyState(1),
    block: 4_242,
    hash: hexOf(`0x${"ab".repeat(32)}`),
    time: TIME + 2 * DAY_SEC,
    nextSeq: size + 1,
    pools: HashMap.fromIterable(pools.map((pool) => [pool.id, pool] as const)),
    tokens: HashMap.fromIterable(tokens.map((token) => [token.address, token] as const)),
    holdings: HashMap.fromIterable(holdings),
    trades: HashMap.fromIterable(trades.map(([token, list]) => [token, fromItems(list)] as const))
  }
}

const SIZE = 6_000
const state = market(SIZE)
const FINGERPRINT = "fingerprint-of-this-test"

const runtimeIn = (dataDir: string) =>
  ManagedRuntime.make(
    Layer.mergeAll(Checkpoint.Default, CheckpointStore.Default).pipe(
      Layer.provide(Layer.mergeAll(AppConfig.Default, NodeContext.layer)),
      Layer.provide(testSettings({ DATA_DIR: dataDir }))
    )
  )

const saved = async (dataDir: string) => {
  const runtime = runtimeIn(dataDir)
  await runtime.runPromise(Effect.flatMap(Checkpoint, (checkpoint) => checkpoint.save(state, FINGERPRINT)))
  return runtime
}

const loadIn = (runtime: ReturnType<typeof runtimeIn>) =>
  runtime.runPromise(Effect.flatMap(Checkpoint, (checkpoint) => checkpoint.load(FINGERPRINT)))

describe("a sliced checkpoint", () => {
  it("loads back equal to the state saved, without the trades past the day", async () => {
    const runtime = await saved(tempDir("checkpoint-trip"))
    const loaded = Option.getOrThrow(await loadIn(runtime))
    expect(canonical(loaded)).toBe(canonical(state))
    expect(loaded.pools.pipe(HashMap.size)).toBe(SIZE)
    const hubTrades = Option.getOrThrow(HashMap.get(loaded.trades, address(2, 0))).flat()
    expect(hubTrades).toHaveLength(SIZE * 2 - 2)
    await runtime.dispose()
  })

  it("gives the event loop back between any two slices while it is written", async () => {
    const runtime = runtimeIn(tempDir("checkpoint-loop"))
    let ticks = 0
    let ticking = true
    const tick = () => {
      ticks++
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    // The ticks seen as each part is made: a stretch that kept the loop from the next part shows as a repeat.
    const seen: Array<number> = []
    const watched = function*() {
      for (const part of storedParts(state, FINGERPRINT)) {
        seen.push(ticks)
        yield part
      }
    }
    await runtime.runPromise(Effect.flatMap(CheckpointStore, (store) => store.write(watched())))
    ticking = false
    expect(seen.length).toBeGreaterThan(20)
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!)
    // What it wrote is the checkpoint the service loads.
    expect(canonical(Option.getOrThrow(await loadIn(runtime)))).toBe(canonical(state))
    await runtime.dispose()
  })

  it("written twice at once, holds the second whole: writes take turns", async () => {
    const runtime = runtimeIn(tempDir("checkpoint-turns"))
    const later = { ...market(SIZE / 3), block: state.block + 1 }
    await runtime.runPromise(
      Effect.flatMap(
        Checkpoint,
        (checkpoint) =>
          Effect.all([checkpoint.save(state, FINGERPRINT), checkpoint.save(later, FINGERPRINT)], {
            concurrency: 2
          })
      )
    )
    expect(canonical(Option.getOrThrow(await loadIn(runtime)))).toBe(canonical(later))
    await runtime.dispose()
  })

  it("refuses a file of the older one-value format, and a cut-off file, without failing", async () => {
    const runtime = await saved(tempDir("checkpoint-old"))
    const file = await runtime.runPromise(Effect.map(CheckpointStore, (store) => store.file))
    const whole = readFileSync(file)
    // As the codec before this one wrote it: the whole state as one `node:v8` value.
    writeFileSync(file, serialize({ version: 4, fingerprint: FINGERPRINT, block: 4_242, pools: [], tokens: [] }))
    expect(Option.isNone(await loadIn(runtime))).toBe(true)
    writeFileSync(file, whole)
    truncateSync(file, Math.floor(whole.length / 2))
    expect(Option.isNone(await loadIn(runtime))).toBe(true)
    await runtime.dispose()
  })
})

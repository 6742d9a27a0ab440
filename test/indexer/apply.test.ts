/**
 * Block application on synthetic events: what each event does to the state, and that a state handed
 * out before is never changed by applying more blocks to it (readers and rollback depend on that).
 */
import { describe, expect, it } from "@effect/vitest"
import { HashMap, Option } from "effect"
import { type Hex, lowerAddress, lowerHex, USDC_ADDRESS, ZERO_ADDRESS } from "../../schema/Chain.js"
import { applyEvents } from "../../src/indexer/Apply.js"
import type { ApplyContext } from "../../src/indexer/Draft.js"
import type { ChainEvent, LogPosition } from "../../src/indexer/Events.js"
import type { Sources } from "../../src/indexer/Sources.js"
import { emptyState, type IndexState } from "../../src/indexer/State.js"
import { canonical } from "./compare.js"

const factory = lowerAddress("0x00000000000000000000000000000000000000f1")
const manager = lowerAddress("0x00000000000000000000000000000000000000f4")
const usdc = USDC_ADDRESS
const token = lowerAddress("0x00000000000000000000000000000000000000b1")
const pair = lowerAddress("0x00000000000000000000000000000000000000c1")
const zero = ZERO_ADDRESS
const alice = lowerAddress("0x000000000000000000000000000000000000a11c")
const bob = lowerAddress("0x0000000000000000000000000000000000000b0b")

const launchpadAddress = lowerAddress("0x00000000000000000000000000000000000000aa")

const sources: Sources = {
  v2Factories: new Map([[factory, "uniswap-v2"]]),
  v3Factories: new Map(),
  v4Managers: new Map([[manager, "uniswap-v4"]]),
  forkV3Swaps: new Map(),
  v2Fees: new Map([["uniswap-v2", { _tag: "Fixed", feePips: 3000 }]]),
  launchpads: new Map([[launchpadAddress, "launchpad"]]),
  usdc
}
const context: ApplyContext = {
  sources,
  metadata: new Map([[token, { symbol: "TKN", name: "Token", decimals: 18, ok: true }]]),
  senders: new Map([[lowerHex("0xtx-mint"), alice], [lowerHex("0xtx-swap"), bob]]),
  pairFees: new Map(),
  tradesSince: 0
}

let logIndex = 0
const at = (block: number, tx: `0x${string}` = "0xtx"): LogPosition => ({
  block,
  time: 1_000 + block,
  tx: lowerHex(tx),
  logIndex: logIndex++
})

const transfer = (block: number, from: Hex, to: Hex, value: bigint, tx?: `0x${string}`): ChainEvent => ({
  _tag: "Transfer",
  at: at(block, tx),
  emitter: token,
  from,
  to,
  value
})

const apply = (state: IndexState, block: number, events: ReadonlyArray<ChainEvent>) =>
  applyEvents(state, events, { number: block, hash: lowerHex(`0x${block}`), time: 1_000 + block }, context)

const listed = () => {
  let state = emptyState(1)
  state = apply(state, 1, [transfer(1, zero, alice, 1_000n, "0xtx-mint")])
  state = apply(state, 2, [
    { _tag: "V2PairCreated", at: at(2), emitter: factory, token0: usdc, token1: token, pair },
    { _tag: "V2Sync", at: at(2), emitter: pair, reserve0: 5_000_000n, reserve1: 100n }
  ])
  return state
}

describe("applyEvents", () => {
  it("a launched token's curve flows start at zero, move with each trade and stop at graduation", () => {
    const launched = lowerAddress("0x00000000000000000000000000000000000000d1")
    const curveTrade = (block: number, isBuy: boolean, usdcAmount: bigint, tokenAmount: bigint): ChainEvent => ({
      _tag: "CurveTrade",
      at: at(block),
      emitter: launchpadAddress,
      token: launched,
      trader: bob,
      isBuy,
      usdcAmount,
      tokenAmount
    })
    const curveOf = (state: IndexState) => Option.getOrThrow(HashMap.get(state.tokens, launched)).curve
    let state = apply(emptyState(1), 1, [{
      _tag: "TokenCreated",
      at: at(1),
      emitter: launchpadAddress,
      token: launched,
      creator: alice,
      name: "Launched",
      symbol: "LNCH"
    }])
    expect(curveOf(state)).toEqual({ usdcIn: 0n, tokensOut: 0n })
    state = apply(state, 2, [curveTrade(2, true, 1_000n, 500n), curveTrade(2, true, 2_000n, 800n)])
    state = apply(state, 3, [curveTrade(3, false, 400n, 300n)])
    expect(curveOf(state)).toEqual({ usdcIn: 2_600n, tokensOut: 1_000n })
    state = apply(state, 4, [
      { _tag: "Graduated", at: at(4), emitter: launchpadAddress, token: launched, pool: pair },
      curveTrade(4, true, 9_999n, 9_999n)
    ])
    expect(curveOf(state)).toEqual({ usdcIn: 2_600n, tokensOut: 1_000n })
    expect(Option.getOrThrow(HashMap.get(state.tokens, launched)).graduated).toBe(true)
    expect(Option.getOrThrow(HashMap.get(listed().tokens, token)).curve).toBeNull()
  })

  it("a pair creation makes both tokens known, with metadata, creator and creation from the first mint", () => {
    const state = listed()
    const facts = Option.getOrThrow(HashMap.get(state.tokens, token))
    expect(facts).toMatchObject({
      symbol: "TKN",
      decimals: 18,
      createdBlock: 1,
      creator: alice,
      pools: [{ id: pair, other: usdc }]
    })
    expect(Option.getOrThrow(HashMap.get(state.tokens, usdc)).pools).toEqual([{ id: pair, other: token }])
    expect(Option.getOrThrow(HashMap.get(state.pools, pair))).toMatchObject({
      kind: "v2",
      reserve0: 5_000_000n,
      reserve1: 100n
    })
    expect(state.block).toBe(2)
  })

  it("counts holders exactly when the first mint was seen", () => {
    let state = listed()
    state = apply(state, 3, [transfer(3, alice, bob, 400n), transfer(3, alice, pair, 600n)])
    const holdings = Option.getOrThrow(HashMap.get(state.holdings, token))
    expect(holdings.holders).toBe(2)
    expect(holdings.complete).toBe(true)
    // A balance that goes below zero means history the index never saw.
    state = apply(state, 4, [transfer(4, alice, bob, 1n)])
    expect(Option.getOrThrow(HashMap.get(state.holdings, token)).complete).toBe(false)
  })

  it("records trades with the transaction sender and the USDC side's value", () => {
    const state = apply(listed(), 3, [
      { _tag: "V2Swap", at: at(3, "0xtx-swap"), emitter: pair, amount0: 250_000n, amount1: 5n, recipient: pair }
    ])
    expect(Option.getOrThrow(HashMap.get(state.trades, token)).flat()).toEqual([
      { time: 1_003, amount: 5n, usdMicro: 250_000n, trader: bob }
    ])
  })

  it("ignores pool events of pools it does not know", () => {
    const before = listed()
    const after = apply(before, 3, [
      {
        _tag: "V2Sync",
        at: at(3),
        emitter: lowerAddress("0x00000000000000000000000000000000000000dd"),
        reserve0: 1n,
        reserve1: 1n
      }
    ])
    expect(HashMap.size(after.pools)).toBe(1)
  })

  it("v4 liquidity inside the current tick moves the active liquidity; outside it only the ticks", () => {
    const id = lowerHex(`0x${"42".repeat(32)}`)
    let state = apply(emptyState(1), 1, [{
      _tag: "V4Initialize",
      at: at(1),
      emitter: manager,
      id,
      currency0: zero,
      currency1: usdc,
      fee: 0x800000,
      tickSpacing: 60,
      hooks: lowerAddress("0x0000000000000000000000000000000000001080"),
      sqrtPriceX96: 2n ** 96n,
      tick: 0
    }])
    state = apply(state, 2, [
      { _tag: "V4ModifyLiquidity", at: at(2), emitter: manager, id, tickLower: -60, tickUpper: 60, delta: 1_000n },
      { _tag: "V4ModifyLiquidity", at: at(2), emitter: manager, id, tickLower: 60, tickUpper: 120, delta: 500n }
    ])
    const pool = Option.getOrThrow(HashMap.get(state.pools, id))
    expect(pool).toMatchObject({ kind: "v4", dynamicFee: true, feePips: 0, liquidity: 1_000n })
    if (pool.kind !== "v4") throw new Error("expected a v4 pool")
    expect(pool.hooks).toBe("0x0000000000000000000000000000000000001080")
    expect(pool.ticks.map((t) => [t.tick, t.liquidityNet])).toEqual([[-60, 1_000n], [60, -500n], [120, -500n]])
    // Native USDC is an asset, never a token of the index.
    expect(HashMap.has(state.tokens, zero)).toBe(false)
    const removed = apply(state, 3, [
      { _tag: "V4ModifyLiquidity", at: at(3), emitter: manager, id, tickLower: 60, tickUpper: 120, delta: -500n }
    ])
    const after = Option.getOrThrow(HashMap.get(removed.pools, id))
    if (after.kind !== "v4") throw new Error("expected a v4 pool")
    expect(after.ticks.map((t) => [t.tick, t.liquidityNet])).toEqual([[-60, 1_000n], [60, -1_000n]])
  })

  it("never changes a state it was given", () => {
    const before = listed()
    const frozen = canonical(before)
    apply(before, 3, [
      transfer(3, alice, bob, 10n),
      { _tag: "V2Sync", at: at(3), emitter: pair, reserve0: 1n, reserve1: 1n },
      { _tag: "V2Swap", at: at(3, "0xtx-swap"), emitter: pair, amount0: 1n, amount1: 1n, recipient: bob }
    ])
    expect(canonical(before)).toBe(frozen)
  })
})

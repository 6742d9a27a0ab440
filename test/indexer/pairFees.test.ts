/**
 * Per-pair ("v2.5") v2 fees in the index: a getter's answer as the index keeps it (hundredths of a basis
 * point), exact for every denominator that divides 10⁶ and nothing for an answer that is not one word,
 * is not below the denominator or would not convert exactly; and a pair keeps the fee read for it, while
 * a pair whose fee could not be read is left out rather than priced at a guess.
 */
import { describe, expect, it } from "@effect/vitest"
import { HashMap, Option } from "effect"
import { type Hex, USDC_ADDRESS } from "../../schema/Chain.js"
import { applyEvents } from "../../src/indexer/Apply.js"
import type { ChainEvent } from "../../src/indexer/Events.js"
import { feePipsOf } from "../../src/indexer/PairFees.js"
import type { V2FeeRule } from "../../src/indexer/Sources.js"
import { emptyState } from "../../src/indexer/State.js"
import { hexOf } from "../support/hex.js"

const rule = (denominator: number) => ({ _tag: "PerPair", selector: hexOf("0x54cf2aeb"), denominator } as const)
const word = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`

describe("feePipsOf", () => {
  it("converts a fee out of its denominator to pips exactly", () => {
    expect(feePipsOf(word(25n), rule(10_000))).toBe(2_500)
    expect(feePipsOf(word(3n), rule(1_000))).toBe(3_000)
    expect(feePipsOf(word(17n), rule(100_000))).toBe(170)
    expect(feePipsOf(word(0n), rule(10_000))).toBe(0)
  })

  it("gives nothing for a failed call, a short or long answer, a fee at the denominator, or an inexact one", () => {
    expect(feePipsOf(undefined, rule(10_000))).toBeUndefined()
    expect(feePipsOf("0x", rule(10_000))).toBeUndefined()
    expect(feePipsOf(`${word(25n)}00`, rule(10_000))).toBeUndefined()
    expect(feePipsOf(word(10_000n), rule(10_000))).toBeUndefined()
    expect(feePipsOf(word(1n), rule(3))).toBeUndefined()
  })
})

describe("applying pairs of a per-pair venue", () => {
  const fixedFactory = hexOf("0x00000000000000000000000000000000000000f1")
  const v25Factory = hexOf("0x00000000000000000000000000000000000000f5")
  const [fixedPair, read, unread] = [
    hexOf("0x00000000000000000000000000000000000000c1"),
    hexOf("0x00000000000000000000000000000000000000c5"),
    hexOf("0x00000000000000000000000000000000000000c6")
  ]
  const token = hexOf("0x00000000000000000000000000000000000000b1")

  it("a pair keeps the fee read for it, a pair whose fee could not be read is left out", () => {
    const created = (pair: Hex, emitter: Hex): ChainEvent => ({
      _tag: "V2PairCreated",
      at: { block: 2, time: 1_002, tx: hexOf("0x7478"), logIndex: 0 },
      emitter,
      token0: USDC_ADDRESS,
      token1: token,
      pair
    })
    const state = applyEvents(
      emptyState(1),
      [created(read, v25Factory), created(unread, v25Factory), created(fixedPair, fixedFactory)],
      { number: 2, hash: hexOf("0x2"), time: 1_002 },
      {
        sources: {
          v2Factories: new Map([[fixedFactory, "uniswap-v2"], [v25Factory, "pairfee-v2"]]),
          v3Factories: new Map(),
          v4Managers: new Map(),
          forkV3Swaps: new Map(),
          v2Fees: new Map<string, V2FeeRule>([["uniswap-v2", { _tag: "Fixed", feePips: 3000 }], [
            "pairfee-v2",
            rule(10_000)
          ]]),
          launchpads: new Map(),
          usdc: USDC_ADDRESS
        },
        metadata: new Map(),
        senders: new Map(),
        pairFees: new Map([[read, 2_500]]),
        tradesSince: 0
      }
    )
    const feeOf = (id: Hex) => Option.map(HashMap.get(state.pools, id), (pool) => [pool.venue, pool.feePips])
    expect(feeOf(read)).toEqual(Option.some(["pairfee-v2", 2_500]))
    expect(feeOf(unread)).toEqual(Option.none())
    // A fixed-fee venue's pair takes its venue's fee, whatever was read for others.
    expect(feeOf(fixedPair)).toEqual(Option.some(["uniswap-v2", 3_000]))
  })
})

/**
 * A per-pair fee getter's answer as the index keeps it (hundredths of a basis point): exact for every
 * denominator that divides 10⁶, and nothing for an answer that is not one word, is not below the
 * denominator, or would not convert exactly (such a pair is left out rather than priced at a guess).
 */
import { describe, expect, it } from "@effect/vitest"
import { feePipsOf } from "../../src/indexer/PairFees.js"

const rule = (denominator: number) => ({ _tag: "PerPair", selector: "0x54cf2aeb", denominator } as const)
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

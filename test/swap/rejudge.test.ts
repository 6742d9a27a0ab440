/**
 * What counts as a verdict that got worse at swap time where no tax could be measured (a pool on the
 * route that cannot be priced exactly): the round trip's loss, beyond what depth changes explain.
 */
import { describe, expect, it } from "@effect/vitest"
import type { SafetyVerdict } from "../../schema/Token.js"
import { worsened } from "../../src/swap/Rejudge.js"

const unpriced = (verdict: SafetyVerdict["verdict"], roundTripLossBps: number) =>
  ({ verdict, buyTaxBps: null, sellTaxBps: null, roundTripLossBps }) as SafetyVerdict

describe("a verdict that got worse, without taxes", () => {
  it("a round trip that now loses 20 % more is worse, though both verdicts are `taxed`", () => {
    expect(worsened(unpriced("taxed", 300), unpriced("taxed", 2_300))).toBe(true)
  })

  it("a loss that moved by no more than depth explains (1 %) is not", () => {
    expect(worsened(unpriced("taxed", 300), unpriced("taxed", 400))).toBe(false)
    expect(worsened(unpriced("ok", 70), unpriced("ok", 60))).toBe(false)
  })

  it("where taxes were measured both times, the taxes decide, not the loss", () => {
    const taxed = (roundTripLossBps: number) =>
      ({ verdict: "taxed", buyTaxBps: 300, sellTaxBps: 300, roundTripLossBps }) as SafetyVerdict
    expect(worsened(taxed(700), taxed(1_200))).toBe(false)
  })
})

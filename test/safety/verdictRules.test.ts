/**
 * The verdict rules on measurements as the round trip reports them: what decides is what the wallet
 * gets back in USDC and what the pools' exact math accounts for, not the token's own Transfer events.
 * Each case is a token design seen in the wild, reduced to the figures its round trip produces.
 */
import { describe, expect, it } from "@effect/vitest"
import { decide, type Measurement } from "../../src/safety/check/Verdict.js"

const base = {
  routeId: "r",
  route: { venue: "uniswap-v2", poolId: "0x01", pair: "T/USDC" },
  scope: { block: 1, walletProfile: "fresh_eoa" }
}
const thresholds = { illiquidImpactBps: 1_000, confiscatoryTaxBps: 5_000 }
const E6 = 10n ** 6n

/** An honest, untaxed round trip of 100 USDC over one 0.3 % pool: 1,000 tokens in and out, 99.3 USDC back. */
const honest: Measurement = {
  buy: { _tag: "Bought", received: 1_000n, witnessed: true, gasUsed: 1n },
  sell: { _tag: "Sold", balance: 1_000n, sent: 1_000n, witnessed: true, usdcOut: 99_300_000n, gasUsed: 1n, logs: [] },
  later: [],
  amountIn: 100n * E6,
  buyTaxBps: 0,
  sellTaxBps: 0,
  expectedBuyOut: 1_000n,
  poolFeesBps: 60,
  buyImpactBps: 5,
  depthImpactBps: 5,
  maxBuyUsdc: undefined
}

/** The same round trip over a hooked pool the service cannot price exactly. */
const unpriced = (usdcOut: bigint): Measurement => ({
  ...honest,
  sell: { ...honest.sell!, usdcOut } as Measurement["sell"],
  buyTaxBps: undefined,
  sellTaxBps: undefined,
  expectedBuyOut: undefined
})

describe("verdicts where a hop cannot be priced exactly", () => {
  it("a hook that keeps 99 % of a sell is `cannot_sell`, though no tax could be measured", () => {
    const verdict = decide(base, unpriced(1_000_000n), thresholds)
    expect(verdict).toMatchObject({ verdict: "cannot_sell", canSell: false, roundTripLossBps: 9_900 })
    expect(verdict.reason).toMatch(/9840 bps loss beyond the pools' own fees/)
  })

  it("a loss at the confiscatory threshold beyond the pools' fees is `cannot_sell`; just under it is `taxed`", () => {
    // 60 bps of fees + 5,000 bps beyond them.
    expect(decide(base, unpriced(49_400_000n), thresholds).verdict).toBe("cannot_sell")
    const taxed = decide(base, unpriced(49_410_000n), thresholds)
    expect(taxed).toMatchObject({ verdict: "taxed", canSell: true, buyTaxBps: null, sellTaxBps: null })
    expect(taxed.reason).toMatch(/4999 bps beyond the pools' own fees/)
  })

  it("a round trip that loses only the pools' fees is `ok`", () => {
    expect(decide(base, unpriced(99_300_000n), thresholds)).toMatchObject({ verdict: "ok", roundTripLossBps: 70 })
  })

  it("without exact prices, balances no Transfer event witnesses are not called safe", () => {
    const m = unpriced(99_300_000n)
    const verdict = decide(base, { ...m, buy: { ...m.buy, witnessed: false } as Measurement["buy"] }, thresholds)
    expect(verdict.verdict).toBe("inconclusive")
  })
})

describe("reflection and invented balances", () => {
  it("a reflection token (balances move without a Transfer per unit) is judged by its taxes and USDC back", () => {
    // 5 % fee each way; the holder's balance grew by a reflection between buy and sell.
    const verdict = decide(base, {
      ...honest,
      buy: { _tag: "Bought", received: 950n, witnessed: false, gasUsed: 1n },
      sell: { _tag: "Sold", balance: 951n, sent: 951n, witnessed: false, usdcOut: 89_700_000n, gasUsed: 1n, logs: [] },
      buyTaxBps: 500,
      sellTaxBps: 500
    }, thresholds)
    expect(verdict).toMatchObject({ verdict: "taxed", canSell: true, buyTaxBps: 500, sellTaxBps: 500 })
    expect(verdict.roundTripLossBps).toBe(1_030)
  })

  it("a balance that rose by more than the pools sent is invented: `inconclusive`", () => {
    const verdict = decide(base, {
      ...honest,
      buy: { _tag: "Bought", received: 2_000n, witnessed: true, gasUsed: 1n },
      sell: {
        _tag: "Sold",
        balance: 2_000n,
        sent: 2_000n,
        witnessed: true,
        usdcOut: 99_300_000n,
        gasUsed: 1n,
        logs: []
      }
    }, thresholds)
    expect(verdict.verdict).toBe("inconclusive")
    expect(verdict.reason).toMatch(/rose by 2000 on the buy, more than the 1000 the pools sent/)
  })

  it("a sell of the whole balance that leaves tokens in the wallet is `inconclusive`", () => {
    const verdict = decide(base, {
      ...honest,
      sell: { _tag: "Sold", balance: 1_000n, sent: 600n, witnessed: true, usdcOut: 59_000_000n, gasUsed: 1n, logs: [] }
    }, thresholds)
    expect(verdict.verdict).toBe("inconclusive")
    expect(verdict.reason).toMatch(/whole balance \(1000\) moved only 600/)
  })

  it("an honest untaxed token is `ok` with its figures", () => {
    expect(decide(base, honest, thresholds)).toMatchObject({
      verdict: "ok",
      canSell: true,
      buyTaxBps: 0,
      sellTaxBps: 0,
      roundTripLossBps: 70
    })
  })
})

/**
 * Ranking and resolution on a synthetic market: verified beats deep, an impersonator never outranks
 * the canonical token however deep it is, and each resolution value where it applies.
 */
import { describe, expect, it } from "@effect/vitest"
import { runQuery } from "../../src/search/Query.js"
import { address, type Listing, viewOf } from "./market.js"

const canonical: Listing = {
  address: address(0x100),
  symbol: "WETH",
  name: "Wrapped Ether",
  usdcDepth: 1_000n,
  verified: true
}
const impostor: Listing = { address: address(0x101), symbol: "WETH", name: "Wrapped Ether", usdcDepth: 900_000n }
const lookalike: Listing = { address: address(0x102), symbol: "WETH2", name: "Wetherby", usdcDepth: 50_000n }
const novaA: Listing = { address: address(0x103), symbol: "NOVA", name: "Nova Finance", usdcDepth: 10_000n }
const novaB: Listing = { address: address(0x104), symbol: "nova", name: "NovaSwap", usdcDepth: 20_000n }
const solo: Listing = { address: address(0x105), symbol: "SOLO", name: "Solo Coin", usdcDepth: 5_000n }
const soloPlus: Listing = { address: address(0x107), symbol: "SOLOX", name: "Solo Plus", usdcDepth: 90_000n }
const btc: Listing = { address: address(0x106), symbol: "WBTC", name: "Wrapped BTC", usdcDepth: 2_000n, verified: true }
const view = viewOf([canonical, impostor, lookalike, novaA, novaB, solo, btc, soloPlus])

const addresses = (query: string) => runQuery(view, query, 10)?.ranked.map((r) => r.assessment.token.address)

describe("ranking", () => {
  it("the canonical token first however deep the impersonator's pool", () => {
    const outcome = runQuery(view, "weth", 10)!
    expect(outcome.resolution).toBe("verified")
    expect(addresses("weth")).toEqual([canonical.address, lookalike.address, impostor.address])
    const flags = outcome.ranked.map((r) => r.assessment.flags)
    expect(flags[0]).toEqual([])
    expect(flags[2]).toContain("impersonates_canonical")
  })

  it("by name too, and case, width and $ do not matter", () => {
    expect(addresses("WRAPPED ETHER")![0]).toBe(canonical.address)
    expect(addresses("$ｗｅｔｈ")![0]).toBe(canonical.address)
  })

  it("shared tickers without a verified token are ambiguous, deeper first", () => {
    const outcome = runQuery(view, "NOVA", 10)!
    expect(outcome.resolution).toBe("ambiguous")
    expect(outcome.ranked.map((r) => r.assessment.token.address)).toEqual([novaB.address, novaA.address])
    for (const r of outcome.ranked) expect(r.assessment.flags).toContain("shared_ticker")
  })

  it("several verified matches are ambiguous; one unverified match is unverified; an address is address", () => {
    expect(runQuery(view, "wrapped", 10)!.resolution).toBe("ambiguous")
    // one exact ticker; a deeper prefix match does not make it ambiguous, nor outrank it
    const solos = runQuery(view, "solo", 10)!
    expect(solos.resolution).toBe("unverified")
    expect(solos.ranked.map((r) => r.assessment.token.address)).toEqual([solo.address, soloPlus.address])
    expect(runQuery(view, "sol", 10)!.resolution).toBe("ambiguous")
    expect(runQuery(view, solo.address.toUpperCase().replace("0X", "0x"), 10)!.resolution).toBe("address")
    expect(runQuery(view, canonical.address, 10)!.resolution).toBe("verified")
    expect(runQuery(view, "nothing-like-this", 10)).toBeUndefined()
  })

  it("depth comes from the pool math: $1 tokens against USDC, 2% of price is about 1% of the reserve", () => {
    const figures = runQuery(view, "solo", 10)!.ranked[0]!.assessment.figures
    // 5,000 USDC a side: sqrt(1/0.98) − 1 ≈ 1.015% of 5,000, plus the 0.3% fee, on the shallower side
    expect(Number(figures.depthMicro) / 1e6).toBeCloseTo(50.9, 0)
    expect(Number(figures.liquidityMicro) / 1e6).toBeCloseTo(10_000, 0)
  })
})

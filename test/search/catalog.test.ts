/**
 * The search catalog: normalization, prefix matching, growing by a delta as tokens arrive, and a full
 * rebuild after a rollback.
 */
import { describe, expect, it } from "@effect/vitest"
import { byAddress, catalogFor, normalize, symbolGroup, withPrefix } from "../../src/search/Catalog.js"
import { bookOf } from "../../src/search/Verification.js"
import { address, type Listing, marketState, snapshotOf, tokenList } from "./market.js"

const listing = (n: number, symbol: string, name: string, verified = false): Listing => ({
  address: address(n),
  symbol,
  name,
  usdcDepth: 100n,
  verified
})

describe("normalize", () => {
  it("folds case, width and invisible characters", () => {
    expect(normalize("ＷＥＴＨ")).toBe("weth")
    expect(normalize("WE\u200bTH")).toBe("weth")
    expect(normalize("  Wrapped   Ether ")).toBe("wrapped ether")
  })
})

describe("catalog", () => {
  const first = [listing(1, "ALPHA", "Alpha Token"), listing(2, "BETA", "Beta Finance")]
  const listedOnly = listing(9, "LIST", "Listed Only", true)
  const book = bookOf(tokenList([...first, listedOnly]), 5042, "https://example.test", "2026-01-01T00:00:00.000Z")

  it("finds by prefix of symbol, name and name word, and lists tokens not yet on chain", () => {
    const catalog = catalogFor(snapshotOf(marketState(first)), book, undefined)
    expect(withPrefix(catalog, "al", 10).map((t) => t.address)).toEqual([address(1)])
    expect(withPrefix(catalog, "fin", 10).map((t) => t.address)).toEqual([address(2)])
    expect(byAddress(catalog, address(9))?.seq).toBe(-1)
    expect(withPrefix(catalog, "zzz", 10)).toEqual([])
  })

  it("grows by a delta when tokens arrive, and rebuilds after a rollback", () => {
    const before = catalogFor(snapshotOf(marketState(first)), book, undefined)
    const grown = [...first, listing(3, "ALPACA", "Alpaca"), { ...listedOnly, usdcDepth: 100n }]
    const after = catalogFor(snapshotOf(marketState(grown)), book, before)
    expect(after.base).toBe(before.base)
    expect(after.deltaTokens.map((t) => t.address)).toEqual(expect.arrayContaining([address(3), address(9)]))
    expect(withPrefix(after, "alp", 10).map((t) => t.address).sort()).toEqual([address(1), address(3)])
    // the chain's entry wins over the list-only one
    expect(byAddress(after, address(9))?.seq).toBeGreaterThanOrEqual(0)
    expect(symbolGroup(after, "list")).toHaveLength(1)

    const rolledBack = catalogFor(snapshotOf(marketState(first), 1), book, after)
    expect(rolledBack.base).not.toBe(before.base)
    expect(rolledBack.deltaTokens).toEqual([])
    expect(byAddress(rolledBack, address(3))).toBeUndefined()
  })
})

/** The spec's price table, its swap tiers' boundaries, and prices from config. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { defaultPrices, priceTableConfig, swapPrice } from "../../layers/payment/Prices.js"

const usd = (dollars: string) => {
  const [whole = "0", fraction = ""] = dollars.split(".")
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"))
}

describe("swap price by order size in US dollars", () => {
  it.each([
    ["0", 10_000n],
    ["999.999999", 10_000n],
    ["1000", 50_000n],
    ["5000", 50_000n],
    ["10000", 50_000n],
    // 0.5 bp of the part above $10,000, rounded down to the base unit.
    ["10000.000001", 50_000n],
    ["10000.02", 50_001n],
    ["20000", 550_000n],
    ["108999.99", 4_999_999n],
    ["109000", 5_000_000n],
    ["10000000", 5_000_000n]
  ])("an order of $%s costs %d base units", (dollars, price) => {
    expect(swapPrice(defaultPrices, usd(dollars))).toBe(price)
  })
})

describe("price table", () => {
  const read = (settings: Record<string, string>) =>
    Effect.withConfigProvider(priceTableConfig, ConfigProvider.fromMap(new Map(Object.entries(settings))))

  it.effect("defaults to the spec: search 0.005, quote 0.01 USDC", () =>
    Effect.gen(function*() {
      expect(yield* read({})).toMatchObject({ search: 5_000n, quote: 10_000n, swapSmall: 10_000n, swapCap: 5_000_000n })
    }))

  it.effect("takes prices from config, and refuses a negative one", () =>
    Effect.gen(function*() {
      expect(yield* read({ PRICE_SEARCH: "7000", PRICE_SWAP_CAP: "4000000" })).toMatchObject({
        search: 7_000n,
        swapCap: 4_000_000n
      })
      const negative = yield* Effect.either(read({ PRICE_QUOTE: "-1" }))
      expect(negative._tag).toBe("Left")
    }))
})

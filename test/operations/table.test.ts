/**
 * The operation table as the payment gate and the MCP server will read it: one entry per name and per
 * route, and what each call costs (search a fixed 0.005 USDC by default, configurable; the rest free).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { priceOf } from "../../src/operations/Operation.js"
import { operations, Search } from "../../src/operations/table.js"

const configured = (settings: Readonly<Record<string, string>>) =>
  Layer.provideMerge(QuoteStore.InMemory, AppConfig.Default).pipe(Layer.provide(AppConfig.withSettings(settings)))

describe("operation table", () => {
  it("names each operation and each route once", () => {
    expect(new Set(operations.map((op) => op.name)).size).toBe(operations.length)
    expect(new Set(operations.map((op) => `${op.method} ${op.path}`)).size).toBe(operations.length)
    expect(operations.map((op) => op.name).sort()).toEqual([
      "health",
      "openapi",
      "quote",
      "receipt",
      "registration",
      "search",
      "swap",
      "swapTx",
      "venues"
    ])
  })

  it.effect("search costs 5000 and quote 10000 USDC base units by default; a swap of an unknown quote (it can only fail) and every other operation are free", () =>
    Effect.gen(function*() {
      const prices = yield* Effect.forEach(operations, (op) =>
        Effect.map(
          priceOf(
            op.cost as never,
            op.request === undefined ? undefined : { query: "WETH", limit: 1, quoteId: "q_0123456789abcdef" }
          ),
          (price) => [op.name, Option.getOrNull(price)] as const
        ))
      expect(Object.fromEntries(prices)).toEqual({
        health: null,
        openapi: null,
        registration: null,
        venues: null,
        receipt: null,
        search: 5_000n,
        quote: 10_000n,
        swap: 0n,
        swapTx: null
      })
    }).pipe(Effect.provide(configured({}))))

  it.effect("a fixed price follows its setting", () =>
    priceOf(Search.cost, { query: "WETH", limit: 1 }).pipe(
      Effect.map((price) => expect(price).toEqual(Option.some(12_345n))),
      Effect.provide(configured({ PRICE_SEARCH: "12345" }))
    ))
})

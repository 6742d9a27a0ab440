/**
 * The operation table as the payment gate and the MCP server will read it: one entry per name and per
 * route, and what each call costs (search a fixed 0.005 USDC by default, configurable; the rest free).
 * The HTTP API holds the table's operations and the two free documents (plain routes, not operations).
 */
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { Api } from "../../src/http/Api.js"
import { priceOf } from "../../src/operations/Cost.js"
import type { AnyOperation } from "../../src/operations/Declare.js"
import { operations, Search } from "../../src/operations/table.js"

const configured = (settings: Readonly<Record<string, string>>) =>
  Layer.provideMerge(QuoteStore.Default, AppConfig.Default).pipe(Layer.provide(AppConfig.withSettings(settings)))

describe("operation table", () => {
  it("names each operation and each route once", () => {
    expect(new Set(operations.map((op) => op.name)).size).toBe(operations.length)
    expect(new Set(operations.map((op) => `${op.method} ${op.path}`)).size).toBe(operations.length)
    expect(operations.map((op) => op.name).sort()).toEqual([
      "health",
      "quote",
      "receipt",
      "search",
      "swap",
      "swapTx",
      "venues"
    ])
  })

  it("the HTTP API mounts every operation and the two documents, each once", () => {
    const mounted: Array<string> = []
    HttpApi.reflect(Api, {
      onGroup: () => undefined,
      onEndpoint: ({ endpoint }) => void mounted.push(`${endpoint.method} ${endpoint.path} ${endpoint.name}`)
    })
    expect(mounted.sort()).toEqual([
      "GET /.well-known/agent-registration.json registration",
      "GET /health health",
      "GET /openapi.json openapi",
      "GET /trade/v1/venues venues",
      "POST /trade/v1/quote quote",
      "POST /trade/v1/receipt receipt",
      "POST /trade/v1/search search",
      "POST /trade/v1/swap swap",
      "POST /trade/v1/swap/tx swapTx"
    ])
  })

  it.effect("search costs 5000 and quote 10000 USDC base units by default; a swap of an unknown quote (it can only fail) and every other operation are free", () =>
    Effect.gen(function*() {
      const table: ReadonlyArray<AnyOperation> = operations
      const prices = yield* Effect.forEach(table, (op) =>
        Effect.map(
          priceOf(
            op.cost,
            { query: "WETH", limit: 1, quoteId: "q_0123456789abcdef" }
          ),
          (price) => [op.name, Option.getOrNull(price)] as const
        ))
      expect(Object.fromEntries(prices)).toEqual({
        health: null,
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

/**
 * What a call costs the caller, in USDC base units (6 decimals): nothing; the same configured price
 * for every call; or a price computed from the decoded request (a swap's fee by order size). The
 * interpreter (./Run.ts) asks `priceOf` after decoding and before running, so a bad request is never
 * charged.
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import type { QuoteStore } from "../../layers/QuoteStore.js"
import type { TradeError } from "../../schema/Errors.js"

export type Cost<I> =
  | { readonly kind: "free" }
  | { readonly kind: "fixed"; readonly price: Effect.Effect<bigint, never, AppConfig> }
  | {
    readonly kind: "fromInput"
    readonly price: (input: I) => Effect.Effect<bigint, TradeError, CostContext>
    /** The pricing rule in words, for the OpenAPI document and the MCP tool description. */
    readonly rule: string
  }

/** What a price may read: the configured prices, and stored quotes (a swap is priced from its quote). */
export type CostContext = AppConfig | QuoteStore

export const Cost = {
  free: { kind: "free" } as const,
  /** A price from the configured price list (`PRICE_*`). */
  fixed: (pick: (prices: AppConfig["prices"]) => bigint) => ({
    kind: "fixed" as const,
    price: Effect.map(AppConfig, (config) => pick(config.prices))
  }),
  fromInput: <I>(price: (input: I) => Effect.Effect<bigint, TradeError, CostContext>, rule: string) => ({
    kind: "fromInput" as const,
    price,
    rule
  })
}

/** The price of one call with `input`; none when the operation is free. */
export const priceOf = <I>(cost: Cost<I>, input: I): Effect.Effect<Option.Option<bigint>, TradeError, CostContext> => {
  switch (cost.kind) {
    case "free":
      return Effect.succeedNone
    case "fixed":
      return Effect.asSome(cost.price)
    case "fromInput":
      return Effect.asSome(cost.price(input))
  }
}

/** Whether a call can cost something: a paid operation documents and offers x402 payment. */
export const isPaid = (cost: Cost<never>): boolean => cost.kind !== "free"

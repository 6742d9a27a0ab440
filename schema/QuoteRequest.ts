/**
 * The `quote` request. `buy` and `sell` are plain strings on the wire so that a ticker can be
 * answered with `ticker_not_allowed` rather than a generic schema error.
 */
import { Schema } from "effect"
import { USDC_ADDRESS } from "./Chain.js"
import { Address } from "./Primitives.js"

const TokenAddressField = Schema.String.annotations({
  description: "token contract address; a ticker is refused with `ticker_not_allowed`",
  examples: [USDC_ADDRESS]
})

export const QuoteRequest = Schema.Struct({
  sell: TokenAddressField,
  buy: TokenAddressField,
  // A plain string on the wire too: a malformed amount answers `invalid_amount`, not a schema error.
  amount: Schema.String.annotations({
    description:
      "decimal string in whole-token units (e.g. `\"12.5\"`, at most the token's decimals after the point, not zero): the sell amount for exactIn, the buy amount for exactOut",
    examples: ["1250.5"]
  }),
  side: Schema.optionalWith(Schema.Literal("exactIn", "exactOut"), { default: () => "exactIn" as const }),
  slippageBps: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 5_000)), { default: () => 100 }),
  venues: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(16))),
  excludeVenues: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(16))),
  taker: Schema.optional(Address),
  ttlSec: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 120)), { default: () => 120 }),
  maxSplits: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 4)), { default: () => 3 }).annotations({
    description: "most paths a USDC-side order may be split across (1 disables splitting)"
  }),
  maxHops: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 3)), { default: () => 2 }).annotations({
    description: "most pools on one path (1 allows direct pools only)"
  })
}).annotations({ identifier: "QuoteRequest" })
export type QuoteRequest = typeof QuoteRequest.Type

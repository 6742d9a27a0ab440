/**
 * `POST /trade/v1/search`: find a token by ticker, name, prefix or address.
 */
import { Schema } from "effect"
import { BlockNumber, Network } from "./Primitives.js"
import { TokenResult } from "./Token.js"

export const SearchRequest = Schema.Struct({
  query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)).annotations({
    description: "ticker, name, prefix or `0x` address",
    examples: ["WETH"]
  }),
  limit: Schema.optionalWith(
    Schema.Int.pipe(Schema.between(1, 25)).annotations({ description: "1 to 25" }),
    { default: () => 10 }
  )
}).annotations({ identifier: "SearchRequest" })
export type SearchRequest = typeof SearchRequest.Type

export const Resolution = Schema.Literal("verified", "ambiguous", "unverified", "address").annotations({
  description: [
    "`verified`: the first result is verified and no other match is;",
    "`ambiguous`: several plausible tokens and no single verified one (a shared ticker, several verified matches);",
    "`unverified`: one best match (exact ticker, else exact name, else prefix), not verified;",
    "`address`: the query was the address of an unverified token"
  ].join(" ")
})
export type Resolution = typeof Resolution.Type

export const SearchResponse = Schema.Struct({
  query: Schema.String,
  network: Network,
  block: BlockNumber,
  resolution: Resolution,
  rulesVersion: Schema.String,
  results: Schema.Array(TokenResult)
}).annotations({ identifier: "SearchResponse" })
export type SearchResponse = typeof SearchResponse.Type

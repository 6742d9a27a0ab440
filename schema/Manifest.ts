/**
 * The devnet manifest (`.devnet/manifest.json`): what a client needs to use the embedded chain.
 * The service reads the same file to learn its contract addresses and token list on the devnet.
 */
import { Schema } from "effect"

const Hex = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]*$/))

/** A Uniswap token list (https://tokenlists.org), the verification source. */
export const TokenListEntry = Schema.Struct({
  chainId: Schema.Number,
  address: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Number,
  logoURI: Schema.optional(Schema.String),
  tags: Schema.optional(Schema.Array(Schema.String)),
  extensions: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
export const TokenList = Schema.Struct({
  name: Schema.String,
  timestamp: Schema.String,
  version: Schema.Struct({ major: Schema.Number, minor: Schema.Number, patch: Schema.Number }),
  tokens: Schema.Array(TokenListEntry)
})
export type TokenList = typeof TokenList.Type

export const ManifestAccount = Schema.Struct({
  address: Hex,
  privateKey: Hex
})

export const Manifest = Schema.Struct({
  rpcUrl: Schema.String,
  chainId: Schema.Number,
  /** Block the bootstrap started deploying at; an indexer may start here. */
  startBlock: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  /** role → address, e.g. `usdc`, `permit2`, `v2Factory`, `v3Factory`, `v4PoolManager`, `launchpad`. */
  contracts: Schema.Record({ key: Schema.String, value: Hex }),
  tokenList: TokenList,
  accounts: Schema.Array(ManifestAccount),
  /** symbol-ish label → token address, for tests and humans. */
  tokens: Schema.optional(Schema.Record({ key: Schema.String, value: Hex }))
})
export type Manifest = typeof Manifest.Type

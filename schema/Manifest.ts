/**
 * The devnet manifest (`.devnet/manifest.json`): what a client needs to use the embedded chain.
 * The service reads the same file to learn its contract addresses and token list on the devnet.
 */
import { Schema } from "effect"
import { asWritten } from "./Chain.js"
import { HexString } from "./Primitives.js"
import { VenueFile } from "./VenueFile.js"

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
  address: HexString,
  privateKey: HexString
})

/** A seeded pool (devnet): for tests and humans; the service discovers pools from the chain. */
export const ManifestPool = Schema.Struct({
  /** e.g. `v3:WETH/USDC:500`, `v4:ZAP/USDC:dynamic:dynamicFeeHook` */
  label: Schema.String,
  venue: Schema.Literal("v2", "v3", "v4"),
  /** token labels (see `tokens`): the traded token, then its quote */
  pair: Schema.Tuple(Schema.String, Schema.String),
  /** pair or pool contract; the PoolManager for v4 */
  address: HexString,
  /** v4 pool id; the pool address otherwise */
  id: HexString,
  token0: HexString,
  token1: HexString,
  /** hundredths of a bip; null when a hook sets it per swap (the v4 key then holds 0x800000) */
  fee: Schema.NullOr(Schema.Number),
  tickSpacing: Schema.NullOr(Schema.Number),
  hooks: Schema.NullOr(HexString)
})
export type ManifestPool = typeof ManifestPool.Type

export const Manifest = Schema.Struct({
  rpcUrl: Schema.String,
  chainId: Schema.Number,
  /** Block the bootstrap started deploying at; an indexer may start here. */
  startBlock: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  /** role → address, e.g. `usdc`, `permit2`, `v2Factory`, `v3Factory`, `v4PoolManager`, `launchpad`. */
  contracts: Schema.Record({ key: Schema.String, value: HexString.pipe(asWritten) }),
  tokenList: TokenList,
  accounts: Schema.Array(ManifestAccount),
  /** symbol-ish label → token address, for tests and humans. */
  tokens: Schema.optional(Schema.Record({ key: Schema.String, value: HexString })),
  pools: Schema.optional(Schema.Array(ManifestPool)),
  /** The devnet's venue file, also written to `VENUES_FILE`; an operator's manifest may leave it out. */
  venues: Schema.optional(VenueFile)
})
export type Manifest = typeof Manifest.Type

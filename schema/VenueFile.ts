/**
 * The venue file: a chain's DEX landscape as data (`VENUES_FILE`). Each entry is one venue, a fork of a
 * known family with its own contracts and fee rules; a new fork is a new entry, never new code. The
 * devnet bootstrap writes the devnet's; `npm run deploy-router` deploys a router for a file on any chain.
 *
 * The router is deployed for the file's venues in file order: a plan step names its venue by that index
 * (`Step.venue`), so the file and the router's venue table must agree, which start-up checks.
 */
import { Schema } from "effect"
import { asWritten } from "./Chain.js"

const EvmAddress = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{40}$/, { message: () => "expected a 0x-prefixed 20-byte hex address" }),
  asWritten
)
const Bytes32 = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{64}$/, { message: () => "expected a 0x-prefixed 32-byte hex value" }),
  asWritten
)
const VenueId = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: () => "expected a lower-case venue id such as sushiswap-v2" })
)
const CallbackName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
    message: () => "expected a function name such as pancakeV3SwapCallback"
  })
)
/** Uniswap v3's Swap event; a fork's may append fields. */
export const UNISWAP_V3_SWAP_EVENT = "Swap(address,address,int256,int256,uint160,uint128,int24)"
const V3SwapEvent = Schema.String.pipe(
  // Appended fields one word each (the index counts data words): static types only.
  Schema.pattern(/^Swap\(address,address,int256,int256,uint160,uint128,int24(,(u?int\d+|address|bool|bytes\d+))*\)$/, {
    message: () => `expected a Swap event signature that begins as ${UNISWAP_V3_SWAP_EVENT.slice(0, -1)}`
  })
)
/** A fee in hundredths of a basis point (Uniswap v3's unit: 3000 = 0.3 %). */
const FeePips = Schema.Int.pipe(Schema.between(0, 999_999))

const Common = { id: VenueId, name: Schema.String }

/** A v2 pair's fee: the same for every pair of the venue, or read from each pair (a "v2.5" fork). */
export const V2Fee = Schema.Union(
  Schema.Struct({ fixed: FeePips }),
  Schema.Struct({
    perPair: Schema.Struct({
      /** the pair's view function that returns its fee, as a signature without arguments, e.g. `swapFee()` */
      getter: Schema.String.pipe(
        Schema.pattern(/^[A-Za-z_$][A-Za-z0-9_$]*\(\)$/, {
          message: () => "expected the signature of a view without arguments, such as swapFee()"
        })
      ),
      /** what the getter's value is out of, e.g. 10000 when it returns basis points */
      denominator: Schema.Int.pipe(Schema.positive())
    })
  })
)

export const V2VenueEntry = Schema.Struct({
  ...Common,
  family: Schema.Literal("v2"),
  factory: EvmAddress,
  pairInitCodeHash: Bytes32,
  fee: V2Fee
})

export const FeeTier = Schema.Struct({ fee: FeePips, tickSpacing: Schema.Int.pipe(Schema.between(1, 16_383)) })

export const V3VenueEntry = Schema.Struct({
  ...Common,
  family: Schema.Literal("v3"),
  factory: EvmAddress,
  /** the CREATE2 deployer of the venue's pools, when it is not the factory */
  poolDeployer: Schema.optional(EvmAddress),
  poolInitCodeHash: Bytes32,
  feeTiers: Schema.NonEmptyArray(FeeTier),
  /** the name the pools call back under, when not `uniswapV3SwapCallback`, with the same arguments
   * (PancakeSwap v3: `pancakeV3SwapCallback`); the router accepts it from the venue's verified pools */
  swapCallback: Schema.optional(CallbackName),
  /** the pools' Swap event, when not Uniswap's: its fields must begin with Uniswap's seven (PancakeSwap v3
   * appends two protocol-fee amounts), which are all the index reads */
  swapEvent: Schema.optional(V3SwapEvent)
})

export const V4VenueEntry = Schema.Struct({
  ...Common,
  family: Schema.Literal("v4"),
  poolManager: EvmAddress,
  stateView: EvmAddress,
  quoter: EvmAddress
})

export const LaunchpadVenueEntry = Schema.Struct({
  ...Common,
  family: Schema.Literal("launchpad"),
  launchpad: EvmAddress,
  /** the venue id its graduated tokens trade on */
  graduatesTo: VenueId
})

export const VenueEntry = Schema.Union(V2VenueEntry, V3VenueEntry, V4VenueEntry, LaunchpadVenueEntry)
export type VenueEntry = typeof VenueEntry.Type
export type VenueFamily = VenueEntry["family"]

export const VenueFile = Schema.Struct({
  chainId: Schema.Int.pipe(Schema.positive()),
  /** the chain's Permit2; not always at the canonical address */
  permit2: EvmAddress,
  /** the service's router deployed for these venues, in this order; absent: quotes only, no execution */
  router: Schema.optional(EvmAddress),
  venues: Schema.NonEmptyArray(VenueEntry)
}).pipe(
  Schema.filter((file) => {
    const ids = file.venues.map((venue) => venue.id)
    const repeated = ids.find((id, at) => ids.indexOf(id) !== at)
    if (repeated !== undefined) return `venue id ${repeated} appears twice`
    if (file.venues.length > 255) return "at most 255 venues: a plan step names its venue in one byte"
    const launchpadTargets = file.venues.flatMap((venue) => venue.family === "launchpad" ? [venue] : [])
    const missing = launchpadTargets.find((venue) => !ids.includes(venue.graduatesTo))
    return missing === undefined
      ? true
      : `venue ${missing.id} graduates to ${missing.graduatesTo}, which is not in the file`
  })
).annotations({ identifier: "VenueFile" })
export type VenueFile = typeof VenueFile.Type

/**
 * Deploys the service's router (contracts/router/TradeRouter.sol) for a venue file: its venue table is
 * the file's venues in file order (schema/VenueTable.ts), so a plan's `Step.venue` i is the file's
 * venue i. The devnet's router is deployed for the devnet's whole venue file (./venues.ts
 * `devnetVenueFile`, forks included), whose init code hashes are taken from the same artifacts the
 * factories deploy, so the router's CREATE2 pool check agrees with the factories by construction. Native value is turned into USDC through the devnet USDC's `deposit` (NATIVE_DEPOSIT); on
 * Arc the router is deployed with NATIVE_SAME_BALANCE instead.
 */
import { Effect } from "effect"
import type { Address } from "viem"
import type { VenueFile } from "../schema/VenueFile.js"
import { venueTableOf } from "../schema/VenueTable.js"
import { loadArtifact } from "./Artifacts.js"
import type { Tx } from "./Tx.js"

export const NativeMode = { none: 0, deposit: 1, sameBalance: 2 } as const
export type NativeModeCode = (typeof NativeMode)[keyof typeof NativeMode]

/** The constructor argument of TradeRouter for `file`. */
export const routerConfigOf = (file: VenueFile, usdc: Address, nativeMode: NativeModeCode) => ({
  permit2: file.permit2 as Address,
  usdc,
  nativeMode,
  venues: venueTableOf(file)
})

/** `Step.venue` of each devnet venue: its index in `devnetVenueFile`, as tests and benches name them. */
export const DevnetVenue = {
  v2: 0,
  v3: 1,
  v4: 2,
  curve: 3,
  lowFeeV2: 4,
  forkV3: 5,
  pairFeeV2: 6,
  pancakeV3: 7
} as const

export const deployRouter = Effect.fn("deployRouter")(
  function*(tx: Tx, deployer: Address, file: VenueFile, usdc: Address, nativeMode: NativeModeCode) {
    const config = routerConfigOf(file, usdc, nativeMode)
    return yield* tx.deploy(deployer, loadArtifact("TradeRouter"), [config], "TradeRouter")
  }
)

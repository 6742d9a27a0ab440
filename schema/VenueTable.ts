/**
 * The router's venue table for a venue file (schema/VenueFile.ts): the one mapping from the file's
 * entries to the `VenueConfig[]` the router is constructed with (devnet/router.ts, `npm run
 * deploy-router`) and that start-up compares with the deployed router's `venueAt(i)`. The router is
 * deployed for the file's venues in file order, so entry i is `Step.venue` i. Pure.
 */
import { type Address, type Hex, toFunctionSelector, zeroAddress, zeroHash } from "viem"
import type { VenueEntry, VenueFamily, VenueFile } from "./VenueFile.js"

/** `RouterBase.FAMILY_*`: the code that executes a venue's pools. */
export const FamilyCode: Readonly<Record<VenueFamily, number>> = { v2: 0, v3: 1, v4: 2, launchpad: 3 }

/** `RouterBase.VenueConfig`, field for field, as viem reads and writes it. */
export interface VenueConfig {
  readonly family: number
  readonly registry: Address
  readonly deployer: Address
  readonly fee: number
  readonly feeGetter: Hex
  readonly feeDenominator: number
  readonly initCodeHash: Hex
  /** v3 forks: the selector their pools call back under, when not Uniswap's; zero otherwise */
  readonly swapCallback: Hex
}

/** The contract that is the venue to the router: its factory, PoolManager or launchpad. */
export const registryOf = (venue: VenueEntry): Address => {
  switch (venue.family) {
    case "v2":
    case "v3":
      return venue.factory
    case "v4":
      return venue.poolManager
    case "launchpad":
      return venue.launchpad
  }
}

const noPools: Omit<VenueConfig, "family" | "registry"> = {
  deployer: zeroAddress,
  initCodeHash: zeroHash,
  fee: 0,
  feeGetter: "0x00000000",
  feeDenominator: 0,
  swapCallback: "0x00000000"
}

/** The v3 callback's arguments, whatever a fork names it. */
export const v3CallbackSelector = (name: string): Hex => toFunctionSelector(`function ${name}(int256,int256,bytes)`)

export const venueConfigOf = (venue: VenueEntry): VenueConfig => {
  const base = { family: FamilyCode[venue.family], registry: registryOf(venue) }
  switch (venue.family) {
    case "v2": {
      const pools = { deployer: venue.factory, initCodeHash: venue.pairInitCodeHash }
      return "fixed" in venue.fee
        ? { ...base, ...noPools, ...pools, fee: venue.fee.fixed }
        : {
          ...base,
          ...noPools,
          ...pools,
          feeGetter: toFunctionSelector(venue.fee.perPair.getter),
          feeDenominator: venue.fee.perPair.denominator
        }
    }
    case "v3":
      return {
        ...base,
        ...noPools,
        deployer: venue.poolDeployer ?? venue.factory,
        initCodeHash: venue.poolInitCodeHash,
        ...(venue.swapCallback === undefined ? {} : { swapCallback: v3CallbackSelector(venue.swapCallback) })
      }
    case "v4":
    case "launchpad":
      return { ...base, ...noPools }
  }
}

export const venueTableOf = (file: Pick<VenueFile, "venues">): ReadonlyArray<VenueConfig> =>
  file.venues.map(venueConfigOf)

const sameConfig = (a: VenueConfig, b: VenueConfig): boolean =>
  a.family === b.family && a.registry.toLowerCase() === b.registry.toLowerCase() &&
  a.deployer.toLowerCase() === b.deployer.toLowerCase() &&
  a.initCodeHash.toLowerCase() === b.initCodeHash.toLowerCase() &&
  a.fee === b.fee && a.feeGetter.toLowerCase() === b.feeGetter.toLowerCase() && a.feeDenominator === b.feeDenominator &&
  a.swapCallback.toLowerCase() === b.swapCallback.toLowerCase()

/** The first venue where a router's table (read with `venueCount` / `venueAt`) departs from the file's,
 * as a sentence naming the entry; undefined when they agree. */
export const venueTableMismatch = (
  file: Pick<VenueFile, "venues">,
  deployed: ReadonlyArray<VenueConfig>
): string | undefined => {
  const wanted = venueTableOf(file)
  if (deployed.length !== wanted.length) {
    return `the router has ${deployed.length} venues, the venue file ${wanted.length}`
  }
  const at = wanted.findIndex((config, i) => !sameConfig(config, deployed[i]!))
  return at === -1
    ? undefined
    : `venue ${file.venues[at]!.id} (index ${at}) differs between the router and the venue file`
}

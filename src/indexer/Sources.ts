/**
 * Which contracts the index trusts to announce pools and launches. Anyone can emit a `PairCreated` log;
 * only those from the venue file's factories, pool managers and launchpads create index entries, each
 * pool recorded under its venue's id.
 */
import { toEventSelector } from "viem"
import { usdcOf } from "../../layers/Deployment.js"
import type { Venue } from "../../layers/Venues.js"
import { type Hex, ZERO_ADDRESS } from "../../schema/Chain.js"
import { UNISWAP_V3_SWAP_EVENT, type V2VenueEntry } from "../../schema/VenueFile.js"
import { allTopics } from "./Events.js"
import { V2_FEE_BPS } from "./Pools.js"

export interface Sources {
  /** factory or pool-manager address → venue id */
  readonly v2Factories: ReadonlyMap<Hex, string>
  readonly v3Factories: ReadonlyMap<Hex, string>
  readonly v4Managers: ReadonlyMap<Hex, string>
  /** v2 venue id → the fee its pairs charge, in basis points */
  readonly v2FeeBps: ReadonlyMap<string, number>
  /** a v3 fork's own Swap event (topic0) → how many data words it has: Uniswap's five, then its own */
  readonly forkV3Swaps: ReadonlyMap<Hex, number>
  /** launchpad address → launchpad id */
  readonly launchpads: ReadonlyMap<Hex, string>
  /** ERC-20 USDC: the unit of account, priced at $1. */
  readonly usdc: Hex
}

/** Native USDC in a v4 pool key (`Currency` zero): the same asset as ERC-20 USDC, with 18 decimals. */
export const NATIVE: Hex = ZERO_ADDRESS

/** Each venue's registry contract by family; launchpad ids are their venue ids. */
export const sourcesFrom = (
  venues: ReadonlyArray<Venue>,
  contracts: Readonly<Record<string, string>>
): Sources => {
  const registries = (family: Venue["family"], role: string) =>
    new Map(
      venues.flatMap((venue) => {
        const address = venue.contracts[role]
        return venue.family === family && address !== undefined ? [[address.toLowerCase(), venue.id] as const] : []
      })
    )
  return {
    v2Factories: registries("v2", "factory"),
    v3Factories: registries("v3", "factory"),
    v4Managers: registries("v4", "poolManager"),
    v2FeeBps: new Map(
      venues.flatMap((venue) => venue.entry.family === "v2" ? [[venue.id, v2FeeBps(venue.entry)]] : [])
    ),
    forkV3Swaps: new Map(
      venues.flatMap((venue) => {
        const event = venue.entry.family === "v3" ? venue.entry.swapEvent : undefined
        return event === undefined || event === UNISWAP_V3_SWAP_EVENT
          ? []
          : [[toEventSelector(event), event.split(",").length - 2] as const]
      })
    ),
    launchpads: registries("launchpad", "launchpad"),
    usdc: usdcOf({ contracts })
  }
}

/** topic0 of every log the index asks `eth_getLogs` for: the fixed set and the forks' Swap events. */
export const logTopics = (sources: Sources): ReadonlyArray<Hex> => [...allTopics, ...sources.forkV3Swaps.keys()]

/**
 * A v2 venue's fee in basis points, the unit v2 pools carry (`UniswapV2Library`'s 997/1000 is 30). The
 * start-up checks refuse a fee that is not whole basis points and a per-pair fee, so both are exact here.
 */
export const v2FeeBps = (entry: typeof V2VenueEntry.Type): number =>
  "fixed" in entry.fee ? entry.fee.fixed / 100 : V2_FEE_BPS

/** ERC-20 USDC or native USDC: one asset for pairing and pricing. */
export const isUsdc = (sources: Sources, token: Hex): boolean => token === sources.usdc || token === NATIVE

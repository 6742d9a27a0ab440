/**
 * Which contracts the index trusts to announce pools and launches. Anyone can emit a `PairCreated` log;
 * only those from the venue file's factories, pool managers and launchpads create index entries, each
 * pool recorded under its venue's id.
 */
import { toEventSelector, toFunctionSelector } from "viem"
import { usdcOf } from "../../layers/Deployment.js"
import type { Venue } from "../../layers/Venues.js"
import { type Hex, lowerHex, ZERO_ADDRESS } from "../../schema/Chain.js"
import { UNISWAP_V3_SWAP_EVENT, type V2VenueEntry } from "../../schema/VenueFile.js"
import { allTopics } from "./Events.js"

export interface Sources {
  /** factory or pool-manager address → venue id */
  readonly v2Factories: ReadonlyMap<Hex, string>
  readonly v3Factories: ReadonlyMap<Hex, string>
  readonly v4Managers: ReadonlyMap<Hex, string>
  /** v2 venue id → how its pairs charge */
  readonly v2Fees: ReadonlyMap<string, V2FeeRule>
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
  contracts: Readonly<Record<string, `0x${string}`>>
): Sources => {
  const registries = (family: Venue["family"], role: string) =>
    new Map(
      venues.flatMap((venue) => {
        const address = venue.contracts[role]
        return venue.family === family && address !== undefined ? [[lowerHex(address), venue.id] as const] : []
      })
    )
  return {
    v2Factories: registries("v2", "factory"),
    v3Factories: registries("v3", "factory"),
    v4Managers: registries("v4", "poolManager"),
    v2Fees: new Map(
      venues.flatMap((venue) => venue.entry.family === "v2" ? [[venue.id, v2FeeRule(venue.entry)]] : [])
    ),
    forkV3Swaps: new Map(
      venues.flatMap((venue) => {
        const event = venue.entry.family === "v3" ? venue.entry.swapEvent : undefined
        return event === undefined || event === UNISWAP_V3_SWAP_EVENT
          ? []
          : [[lowerHex(toEventSelector(event)), event.split(",").length - 2] as const]
      })
    ),
    launchpads: registries("launchpad", "launchpad"),
    usdc: usdcOf({ contracts })
  }
}

/** topic0 of every log the index asks `eth_getLogs` for: the fixed set and the forks' Swap events. */
export const logTopics = (
  sources: Sources
): ReadonlyArray<`0x${string}`> => [...allTopics, ...sources.forkV3Swaps.keys()]

/**
 * A v2 venue's fee rule: one fee in pips for every pair, or each pair's own, read through the getter the
 * venue file names (a "v2.5" fork fixes it when the pair is created, so it is read once, ./PairFees.ts).
 */
export type V2FeeRule =
  | { readonly _tag: "Fixed"; readonly feePips: number }
  | { readonly _tag: "PerPair"; readonly selector: Hex; readonly denominator: number }
export type PerPairFee = Extract<V2FeeRule, { readonly _tag: "PerPair" }>

export const v2FeeRule = (entry: typeof V2VenueEntry.Type): V2FeeRule =>
  "fixed" in entry.fee
    ? { _tag: "Fixed", feePips: entry.fee.fixed }
    : {
      _tag: "PerPair",
      selector: lowerHex(toFunctionSelector(entry.fee.perPair.getter)),
      denominator: entry.fee.perPair.denominator
    }

/** ERC-20 USDC or native USDC: one asset for pairing and pricing. */
export const isUsdc = (sources: Sources, token: Hex): boolean => token === sources.usdc || token === NATIVE

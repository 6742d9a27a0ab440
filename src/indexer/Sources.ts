/**
 * Which contracts the index trusts to announce pools and launches. Anyone can emit a `PairCreated` log;
 * only those from the deployment's factories, pool manager and launchpad create index entries.
 */
import { usdcOf } from "../../layers/Deployment.js"
import type { Venue } from "../../layers/Venues.js"
import { type Hex, ZERO_ADDRESS } from "../../schema/Chain.js"

export interface Sources {
  /** factory or pool-manager address → venue id */
  readonly v2Factories: ReadonlyMap<Hex, string>
  readonly v3Factories: ReadonlyMap<Hex, string>
  readonly v4Managers: ReadonlyMap<Hex, string>
  /** launchpad address → launchpad id */
  readonly launchpads: ReadonlyMap<Hex, string>
  /** ERC-20 USDC: the unit of account, priced at $1. */
  readonly usdc: Hex
}

/** Native USDC in a v4 pool key (`Currency` zero): the same asset as ERC-20 USDC, with 18 decimals. */
export const NATIVE: Hex = ZERO_ADDRESS

/** Launchpad ids are their deployment role, as the venues listing names them. */
export const sourcesFrom = (
  venues: ReadonlyArray<Venue>,
  contracts: Readonly<Record<string, string>>
): Sources => {
  const registries = (kind: Venue["kind"], role: string) =>
    new Map(
      venues.flatMap((venue) => {
        const address = venue.contracts[role]
        return venue.kind === kind && address !== undefined ? [[address.toLowerCase(), venue.id] as const] : []
      })
    )
  const launchpad = contracts["launchpad"]
  return {
    v2Factories: registries("uniswap_v2", "factory"),
    v3Factories: registries("uniswap_v3", "factory"),
    v4Managers: registries("uniswap_v4", "poolManager"),
    launchpads: new Map(launchpad === undefined ? [] : [[launchpad.toLowerCase(), "launchpad"]]),
    usdc: usdcOf({ contracts })
  }
}

/** ERC-20 USDC or native USDC: one asset for pairing and pricing. */
export const isUsdc = (sources: Sources, token: Hex): boolean => token === sources.usdc || token === NATIVE

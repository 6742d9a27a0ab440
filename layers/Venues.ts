/**
 * The venues the service knows on its chain: the entries of its venue file (schema/VenueFile.ts), each a
 * fork of a known family with its own contracts and fee rules. A venue's id is the file's, as search
 * results, route hops, `venues` / `excludeVenues` and `DISABLED_VENUES` name it; its index is its place
 * in the file, the byte the router's plan names it by.
 */
import { Context, Effect, Layer } from "effect"
import type { VenueEntry, VenueFamily, VenueFile } from "../schema/VenueFile.js"
import { AppConfig } from "./AppConfig.js"
import { Deployment } from "./Deployment.js"

/** The pricing model a venue's family implies, as `GET /trade/v1/venues` reports it. */
export type VenueKind = "uniswap_v2" | "uniswap_v3" | "uniswap_v4" | "launchpad"

const kindOf: Readonly<Record<VenueFamily, VenueKind>> = {
  v2: "uniswap_v2",
  v3: "uniswap_v3",
  v4: "uniswap_v4",
  launchpad: "launchpad"
}

export interface Venue {
  readonly id: string
  readonly kind: VenueKind
  readonly family: VenueFamily
  readonly name: string
  /** place in the venue file: the router's venue table has the same order */
  readonly index: number
  /** the file's entry: contracts, init code hash, fee rule or tiers */
  readonly entry: VenueEntry
  /** role → address of the venue's own contracts (factory, pool manager, quoter…) and the router. */
  readonly contracts: Readonly<Record<string, `0x${string}`>>
  /** Whether the service's router can execute a swap on this venue: the file names a router deployed for it. */
  readonly executable: boolean
  readonly enabled: boolean
}

/** role → address of an entry's own contracts. */
export const contractsOf = (entry: VenueEntry): Record<string, `0x${string}`> => {
  const roles: Record<string, `0x${string}` | undefined> = entry.family === "v2"
    ? { factory: entry.factory }
    : entry.family === "v3"
    ? { factory: entry.factory, poolDeployer: entry.poolDeployer }
    : entry.family === "v4"
    ? { poolManager: entry.poolManager, stateView: entry.stateView, quoter: entry.quoter }
    : { launchpad: entry.launchpad }
  return Object.fromEntries(
    Object.entries(roles).flatMap(([role, address]) => address === undefined ? [] : [[role, address]])
  )
}

export class Venues extends Context.Tag("Venues")<Venues, {
  readonly all: ReadonlyArray<Venue>
  readonly byId: (id: string) => Venue | undefined
}>() {
  static readonly make = (
    file: VenueFile,
    disabled: ReadonlyArray<string>
  ): Context.Tag.Service<Venues> => {
    const router = file.router
    const all = file.venues.map((entry, index): Venue => ({
      id: entry.id,
      kind: kindOf[entry.family],
      family: entry.family,
      name: entry.name,
      index,
      entry,
      contracts: { ...contractsOf(entry), ...(router === undefined ? {} : { router }) },
      executable: router !== undefined,
      enabled: !disabled.includes(entry.id)
    }))
    const byId = new Map(all.map((venue) => [venue.id, venue]))
    return { all, byId: (id) => byId.get(id) }
  }

  /** `DISABLED_VENUES` (comma-separated ids) lets an operator switch a venue off without a redeploy. */
  static readonly Default = Layer.effect(
    Venues,
    Effect.gen(function*() {
      const deployment = yield* Deployment
      const { disabledVenues } = yield* AppConfig
      return Venues.make(deployment.venues, disabledVenues)
    })
  )
}

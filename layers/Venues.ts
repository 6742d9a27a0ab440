/**
 * The venues the service knows on its chain, derived from the deployment's contract roles.
 * A venue is one family of pools that share pricing math and an executor.
 */
import { Context, Effect, Layer } from "effect"
import { AppConfig } from "./AppConfig.js"
import { Deployment } from "./Deployment.js"

export type VenueKind = "uniswap_v2" | "uniswap_v3" | "uniswap_v4" | "launchpad"

export interface Venue {
  readonly id: string
  readonly kind: VenueKind
  readonly name: string
  /** role → address of the venue's own contracts (factory, pool manager, quoter…). */
  readonly contracts: Readonly<Record<string, `0x${string}`>>
  /** Whether the service's router can execute a swap on this venue. */
  readonly executable: boolean
  readonly enabled: boolean
}

interface VenueTemplate {
  readonly id: string
  readonly kind: VenueKind
  readonly name: string
  /** deployment role of the contract that creates the venue's pools */
  readonly registryRole: string
  readonly registryName: string
}

const templates: ReadonlyArray<VenueTemplate> = [
  { id: "uniswap-v2", kind: "uniswap_v2", name: "Uniswap v2", registryRole: "v2Factory", registryName: "factory" },
  { id: "uniswap-v3", kind: "uniswap_v3", name: "Uniswap v3", registryRole: "v3Factory", registryName: "factory" },
  {
    id: "uniswap-v4",
    kind: "uniswap_v4",
    name: "Uniswap v4",
    registryRole: "v4PoolManager",
    registryName: "poolManager"
  },
  // Tokens still on the launchpad's bonding curve trade against it (the router's curve venue); its id is
  // the launchpad id the index records on launched tokens, so curve pools carry it as their venue.
  {
    id: "launchpad",
    kind: "launchpad",
    name: "Bonding-curve launchpad",
    registryRole: "launchpad",
    registryName: "launchpad"
  }
]

export class Venues extends Context.Tag("Venues")<Venues, {
  readonly all: ReadonlyArray<Venue>
  readonly byId: (id: string) => Venue | undefined
  readonly byKind: (kind: VenueKind) => Venue | undefined
}>() {
  static readonly make = (
    contracts: Readonly<Record<string, `0x${string}`>>,
    disabled: ReadonlyArray<string>
  ): Context.Tag.Service<Venues> => {
    const router = contracts["router"]
    const all = templates.flatMap((template): ReadonlyArray<Venue> => {
      const registry = contracts[template.registryRole]
      if (registry === undefined) return []
      return [{
        id: template.id,
        kind: template.kind,
        name: template.name,
        contracts: { [template.registryName]: registry, ...(router === undefined ? {} : { router }) },
        executable: router !== undefined,
        enabled: !disabled.includes(template.id)
      }]
    })
    return {
      all,
      byId: (id) => all.find((venue) => venue.id === id),
      byKind: (kind) => all.find((venue) => venue.kind === kind)
    }
  }

  /** `DISABLED_VENUES` (comma-separated ids) lets an operator switch a venue off without a redeploy. */
  static readonly Default = Layer.effect(
    Venues,
    Effect.gen(function*() {
      const deployment = yield* Deployment
      const { disabledVenues } = yield* AppConfig
      return Venues.make(deployment.contracts, disabledVenues)
    })
  )
}

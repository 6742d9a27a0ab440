/**
 * A pool's venue as the router names it: the venue's index in the router's table (`Step.venue`, from
 * ./FromRoute.ts's `routerVenuesOf`), and the pool fields a step carries on that venue.
 */
import { type Address, zeroAddress } from "viem"
import { DYNAMIC_FEE_FLAG } from "../../schema/Chain.js"
import type { VenueFamily } from "../../schema/VenueFile.js"
import type { RoutablePool } from "../math/Hop.js"
import type { RouterStep } from "./RouterAbi.js"

/** One venue of the router's table as a plan names it: `Step.venue` is `index`; a v4 step's pool is
 * the venue's PoolManager and a curve step's its launchpad (`registry`). */
export interface RouterVenue {
  readonly index: number
  readonly family: VenueFamily
  readonly registry: Address
}

/** The router's venues by venue id. */
export type RouterVenues = ReadonlyMap<string, RouterVenue>

const familyOf: Readonly<Record<RoutablePool["kind"], VenueFamily>> = {
  v2: "v2",
  v3: "v3",
  v4: "v4",
  curve: "launchpad"
}

/** A pool whose venue the router was not deployed for: it can be quoted, never executed. */
export class UnknownPlanVenue extends Error {
  constructor(readonly venueId: string) {
    super(`venue ${venueId} is not in the router's venue table`)
  }
}

/** Venue index, pool address and v4 key fields of one pool. */
export const stepVenue = (
  pool: RoutablePool,
  venues: RouterVenues
): Pick<RouterStep, "venue" | "pool" | "fee" | "tickSpacing" | "hooks"> => {
  const venue = venues.get(pool.venue)
  if (venue === undefined || venue.family !== familyOf[pool.kind]) throw new UnknownPlanVenue(pool.venue)
  const index = venue.index
  switch (pool.kind) {
    case "v2":
      return { venue: index, pool: pool.id, fee: 0, tickSpacing: 0, hooks: zeroAddress }
    case "v3":
      return { venue: index, pool: pool.id, fee: pool.feePips, tickSpacing: 0, hooks: zeroAddress }
    case "v4":
      return {
        venue: index,
        pool: venue.registry,
        fee: pool.dynamicFee ? DYNAMIC_FEE_FLAG : pool.feePips,
        tickSpacing: pool.tickSpacing,
        hooks: pool.hooks ?? zeroAddress
      }
    case "curve":
      return { venue: index, pool: venue.registry, fee: 0, tickSpacing: 0, hooks: zeroAddress }
  }
}

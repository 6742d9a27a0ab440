/**
 * A deployed router's venue table, entry by entry (`venueCount`, `venueAt`), for comparing with a venue
 * file (`venueTableMismatch` in schema/VenueTable.ts): what start-up and `npm run deploy-router` check.
 */
import type { Address, PublicClient } from "viem"
import type { VenueConfig } from "../../schema/VenueTable.js"
import { routerAbi } from "./RouterAbi.js"

export const readVenueTable = async (client: PublicClient, router: Address): Promise<ReadonlyArray<VenueConfig>> => {
  const count = await client.readContract({ address: router, abi: routerAbi, functionName: "venueCount" })
  return Promise.all(
    Array.from(
      { length: Number(count) },
      (_, i) => client.readContract({ address: router, abi: routerAbi, functionName: "venueAt", args: [i] })
    )
  )
}

/**
 * `venues`: the venues of the venue file, routing hubs and launchpads of the deployment.
 */
import { Effect, Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment } from "../../layers/Deployment.js"
import { Venues } from "../../layers/Venues.js"
import { VenuesResponse } from "../../schema/Venues.js"
import { HUB_TAG } from "../routing/Candidates.js"

export const venues = Effect.fn("Venues.run")(function*() {
  const config = yield* AppConfig
  const deployment = yield* Deployment
  const registry = yield* Venues
  const usdc = deployment.contracts["usdc"]?.toLowerCase()
  const hubs = deployment.tokenList.tokens.filter((token) =>
    token.chainId === deployment.chainId &&
    (token.address.toLowerCase() === usdc || (token.tags ?? []).includes(HUB_TAG))
  )
  return yield* Schema.decodeUnknown(VenuesResponse)({
    network: `eip155:${config.chainId}`,
    venues: registry.all.map(({ contracts, enabled, executable, id, kind, name }) => ({
      id,
      kind,
      name,
      contracts,
      executable,
      enabled
    })),
    hubs: hubs.map(({ address, decimals, symbol }) => ({ address, symbol, decimals })),
    launchpads: registry.all.flatMap(({ entry }) =>
      entry.family === "launchpad"
        ? [{ id: entry.id, name: entry.name, address: entry.launchpad, graduatesTo: entry.graduatesTo }]
        : []
    )
  }).pipe(Effect.orDie)
})

/**
 * `venues`: the venues, routing hubs and launchpads of the deployment.
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
  const launchpad = deployment.contracts["launchpad"]
  return yield* Schema.decodeUnknown(VenuesResponse)({
    network: `eip155:${config.chainId}`,
    venues: registry.all,
    hubs: hubs.map(({ address, decimals, symbol }) => ({ address, symbol, decimals })),
    launchpads: launchpad === undefined ? [] : [
      { id: "launchpad", name: "Bonding-curve launchpad", address: launchpad, graduatesTo: "uniswap-v2" }
    ]
  }).pipe(Effect.orDie)
})

/**
 * `GET /trade/v1/venues`: what the service can price and execute on its chain.
 */
import { Schema } from "effect"
import { Address, Network } from "./Primitives.js"

export const VenueKind = Schema.Literal("uniswap_v2", "uniswap_v3", "uniswap_v4", "launchpad").annotations({
  description:
    "pricing model: v2 constant product, v3 concentrated liquidity, v4 singleton pool manager with hooks, launchpad bonding curve (tokens not yet graduated, against USDC)"
})

export const VenueRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "venue id, as accepted by `quote.venues` and `quote.excludeVenues`" }),
  kind: VenueKind,
  name: Schema.String,
  contracts: Schema.Record({ key: Schema.String, value: Address }).annotations({
    description: "role → contract address (`factory`, `poolManager`, `launchpad`, `router`)"
  }),
  executable: Schema.Boolean.annotations({
    description: "whether the service's router can execute swaps on this venue"
  }),
  enabled: Schema.Boolean.annotations({ description: "false when the operator switched the venue off" })
}).annotations({ identifier: "VenueRecord" })

export const HubToken = Schema.Struct({
  address: Address,
  symbol: Schema.String,
  decimals: Schema.NonNegativeInt
}).annotations({ identifier: "HubToken", description: "token used as the middle of two-hop routes" })

export const LaunchpadRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  address: Address,
  graduatesTo: Schema.String.annotations({ description: "venue id that graduated tokens move to" })
}).annotations({ identifier: "LaunchpadRecord" })

export const VenuesResponse = Schema.Struct({
  network: Network,
  venues: Schema.Array(VenueRecord),
  hubs: Schema.Array(HubToken),
  launchpads: Schema.Array(LaunchpadRecord)
}).annotations({ identifier: "VenuesResponse" })
export type VenuesResponse = typeof VenuesResponse.Type

/**
 * The ERC-8004 agent registration file: how an agent registry or client discovers this service.
 */
import { Schema } from "effect"

export const RegistrationService = Schema.Struct({
  name: Schema.String,
  endpoint: Schema.String,
  version: Schema.optional(Schema.String)
})

export const AgentRegistration = Schema.Struct({
  type: Schema.Literal("https://eips.ethereum.org/EIPS/eip-8004#registration-v1"),
  name: Schema.String,
  description: Schema.String,
  image: Schema.String,
  services: Schema.Array(RegistrationService),
  x402Support: Schema.Boolean,
  active: Schema.Boolean,
  registrations: Schema.Array(Schema.Struct({ agentId: Schema.Number, agentRegistry: Schema.String })),
  supportedTrust: Schema.Array(Schema.String)
}).annotations({ identifier: "AgentRegistration" })
export type AgentRegistration = typeof AgentRegistration.Type

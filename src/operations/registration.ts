/**
 * The ERC-8004 registration file: names the HTTP API, the MCP endpoint and the OpenAPI document.
 */
import { Effect } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import type { AgentRegistration } from "../../schema/Registration.js"
import { IMAGE_PATH, SERVICE_NAME } from "../../schema/Service.js"

/** MCP protocol revision the MCP endpoint speaks. */
const MCP_VERSION = "2025-06-18"

export const registration = Effect.fn("Registration.run")(function*() {
  const config = yield* AppConfig
  const base = AppConfig.baseUrl(config)
  const answer: AgentRegistration = {
    type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
    name: SERVICE_NAME,
    description: `${SERVICE_NAME} for agents on eip155:${config.chainId}: token search with verification evidence, ` +
      "sell-back safety simulation, cross-venue quotes and unsigned transactions. Never holds funds or signs. " +
      "Paid per call with x402 v2 in USDC.",
    image: `${base}${IMAGE_PATH}`,
    services: [
      { name: "web", endpoint: base },
      { name: "OpenAPI", endpoint: `${base}/openapi.json`, version: "3.1.0" },
      { name: "MCP", endpoint: `${base}/trade/v1/mcp`, version: MCP_VERSION }
    ],
    x402Support: true,
    active: true,
    registrations: [],
    supportedTrust: []
  }
  return answer
})

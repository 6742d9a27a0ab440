/**
 * The HTTP contract: every mounted endpoint with its payload, success and error schemas.
 * The OpenAPI document is generated from this and nothing else.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  Internal,
  InvalidRequest,
  MethodNotAllowed,
  PayloadTooLarge,
  RouteNotFound,
  RpcUnavailable,
  TokenNotFound,
  UnsupportedMediaType
} from "../../schema/Errors.js"
import { HealthResponse, HealthUnavailable } from "../../schema/Health.js"
import { AgentRegistration } from "../../schema/Registration.js"
import { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { VenuesResponse } from "../../schema/Venues.js"
import { httpError } from "./ErrorSchemas.js"

export const OPENAPI_PATH = "/openapi.json"
export const REGISTRATION_PATH = "/.well-known/agent-registration.json"

export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(HealthResponse)
      .addError(HealthUnavailable, { status: 503 })
      .annotate(OpenApi.Summary, "Service status: chain head, index lag and age, RPC reachability (free)")
  )
  .add(
    HttpApiEndpoint.get("openapi", OPENAPI_PATH)
      .addSuccess(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
      .annotate(OpenApi.Summary, "This OpenAPI 3.1 document (free)")
  )
  .add(
    HttpApiEndpoint.get("registration", REGISTRATION_PATH)
      .addSuccess(AgentRegistration)
      .annotate(OpenApi.Summary, "ERC-8004 agent registration file naming the HTTP API and the MCP endpoint (free)")
  )
{}

export class TradeGroup extends HttpApiGroup.make("trade")
  .add(
    HttpApiEndpoint.get("venues", "/trade/v1/venues")
      .addSuccess(VenuesResponse)
      .annotate(OpenApi.Summary, "Venues, routing hubs and launchpads (free)")
  )
  .add(
    HttpApiEndpoint.post("search", "/trade/v1/search")
      .setPayload(SearchRequest)
      .addSuccess(SearchResponse)
      .addError(httpError(TokenNotFound))
      .annotate(OpenApi.Summary, "Find a token by ticker, name, prefix or 0x address, most relevant first")
  )
{}

export class TradeApi extends HttpApi.make("trade-checkpoint")
  .add(SystemGroup)
  .add(TradeGroup)
  .addError(httpError(InvalidRequest))
  .addError(httpError(RouteNotFound))
  .addError(httpError(MethodNotAllowed))
  .addError(httpError(PayloadTooLarge))
  .addError(httpError(UnsupportedMediaType))
  .addError(httpError(RpcUnavailable))
  .addError(httpError(Internal))
  .annotateContext(OpenApi.annotations({
    title: "Trade checkpoint",
    version: "0.1.0",
    description:
      "Resolves tokens, judges whether they can be sold back, prices trades across venues and returns unsigned " +
      "transactions for Arc (eip155:5042). Paid operations use x402 v2; the same operations are MCP tools at " +
      "/trade/v1/mcp. Every answer carries `X-Request-Id`."
  }))
{}

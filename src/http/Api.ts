/**
 * The HTTP contract, derived from the operation table: one group per documented section (the system
 * group also holds the two documents that describe the service), plus the errors every endpoint can
 * answer with. The OpenAPI document is generated from this and nothing else.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  Internal,
  InvalidRequest,
  MethodNotAllowed,
  PayloadTooLarge,
  RpcUnavailable,
  UnknownPath,
  UnsupportedMediaType
} from "../../schema/Errors.js"
import { AgentRegistration } from "../../schema/Registration.js"
import { SERVICE_NAME, SERVICE_VERSION } from "../../schema/Service.js"
import type { AnyOperation } from "../operations/Declare.js"
import { httpError } from "../operations/HttpErrors.js"
import { systemOperations, tradeOperations } from "../operations/table.js"

export const OPENAPI_PATH = "/openapi.json"
export const REGISTRATION_PATH = "/.well-known/agent-registration.json"

/** One group holding the endpoints of `operations`, typed endpoint by endpoint. */
const groupOf = <const Id extends string, const Ops extends ReadonlyArray<AnyOperation>>(id: Id, operations: Ops) =>
  operations.reduce<HttpApiGroup.HttpApiGroup<Id, Ops[number]["endpoint"], never>>(
    (group, op) => group.add(op.endpoint),
    HttpApiGroup.make(id)
  )

/** Free documents, served as they are: not operations (nothing to price, gate or offer as a tool). */
const OpenApiEndpoint = HttpApiEndpoint.get("openapi", OPENAPI_PATH)
  .addSuccess(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  .annotate(OpenApi.Summary, "This OpenAPI 3.1 document (free)")

const RegistrationEndpoint = HttpApiEndpoint.get("registration", REGISTRATION_PATH)
  .addSuccess(AgentRegistration)
  .annotate(OpenApi.Summary, "ERC-8004 agent registration file naming the HTTP API and the MCP endpoint (free)")

export class SystemGroup extends groupOf("system", systemOperations).add(OpenApiEndpoint).add(RegistrationEndpoint) {}

export class TradeGroup extends groupOf("trade", tradeOperations) {}

export class Api extends HttpApi.make("trade-checkpoint")
  .add(SystemGroup)
  .add(TradeGroup)
  .addError(httpError(InvalidRequest))
  .addError(httpError(UnknownPath))
  .addError(httpError(MethodNotAllowed))
  .addError(httpError(PayloadTooLarge))
  .addError(httpError(UnsupportedMediaType))
  .addError(httpError(RpcUnavailable))
  .addError(httpError(Internal))
  .annotateContext(OpenApi.annotations({
    title: SERVICE_NAME,
    version: SERVICE_VERSION,
    description:
      "Resolves tokens, judges whether they can be sold back, prices trades across venues and returns unsigned " +
      "transactions for Arc (eip155:5042). Paid operations use x402 v2; the same operations are MCP tools at " +
      "/trade/v1/mcp. Every answer carries `X-Request-Id`."
  }))
{}

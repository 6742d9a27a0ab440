/**
 * The HTTP contract, derived from the operation table: one group per documented section, plus the
 * errors every endpoint can answer with. The OpenAPI document is generated from this and nothing else.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import {
  Internal,
  InvalidRequest,
  MethodNotAllowed,
  PayloadTooLarge,
  RpcUnavailable,
  UnknownPath,
  UnsupportedMediaType
} from "../../schema/Errors.js"
import { SERVICE_NAME, SERVICE_VERSION } from "../../schema/Service.js"
import { systemOperations, tradeOperations } from "../operations/table.js"
import { groupOf } from "./Endpoints.js"
import { httpError } from "./ErrorSchemas.js"

export { OPENAPI_PATH, REGISTRATION_PATH } from "../operations/table.js"

export class SystemGroup extends groupOf("system", systemOperations).annotate(
  OpenApi.Description,
  "The service itself: its health, this document and its agent registration file (free)"
) {}

export class TradeGroup extends groupOf("trade", tradeOperations).annotate(
  OpenApi.Description,
  "The trade flow: search -> quote -> swap (-> swap/tx after a Permit2 signature) -> send -> receipt"
) {}

export class TradeApi extends HttpApi.make("trade-checkpoint")
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

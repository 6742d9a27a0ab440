/**
 * Handlers of the HTTP contract: each decodes its input, runs the operation, and returns its answer.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { SearchRequest } from "../../schema/Search.js"
import { health } from "../operations/health.js"
import { registration } from "../operations/registration.js"
import { search } from "../operations/search.js"
import { venues } from "../operations/venues.js"
import { TradeApi } from "./Api.js"
import { healthAnswer } from "./HealthAnswer.js"
import { openApiDocument } from "./OpenApiDocument.js"
import { readJsonBody } from "./RequestBody.js"

export const SystemHandlers = HttpApiBuilder.group(TradeApi, "system", (handlers) =>
  handlers
    .handleRaw("health", () => Effect.map(health(), healthAnswer))
    .handle("openapi", () => Effect.map(AppConfig, (config) => openApiDocument(AppConfig.baseUrl(config))))
    .handle("registration", () => registration()))

export const TradeHandlers = HttpApiBuilder.group(TradeApi, "trade", (handlers) =>
  handlers
    .handle("venues", () => venues())
    .handleRaw("search", () => Effect.flatMap(readJsonBody(SearchRequest), search)))

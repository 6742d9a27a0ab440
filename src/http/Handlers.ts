/**
 * Handlers of the HTTP contract, derived from the operation table: each endpoint serves its
 * operation through `serveOperation`. The OpenAPI operation gets its document from here.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import type { AppConfig } from "../../layers/AppConfig.js"
import type { PaymentGate } from "../../layers/PaymentGate.js"
import { ApiDocument } from "../operations/openapi.js"
import type { AnyOperation, Operation } from "../operations/Operation.js"
import { systemOperations, tradeOperations } from "../operations/table.js"
import { TradeApi } from "./Api.js"
import { fixedPrices, openApiDocument } from "./OpenApiDocument.js"
import { serveOperation } from "./ServeOperation.js"

const handlersOf = <const Group extends "system" | "trade", const Ops extends ReadonlyArray<AnyOperation>>(
  group: Group,
  operations: Ops
) =>
  HttpApiBuilder.group(TradeApi, group, (handlers) =>
    // One handler per operation of the group, so every endpoint of `groupOf(group, operations)` is handled.
    operations.reduce(
      (added: any, op: AnyOperation) => added.handleRaw(op.name, () => serveOperation(op)),
      handlers
    ) as HttpApiBuilder.Handlers<never, never, Operation.Context<Ops[number]> | PaymentGate | AppConfig>)

const ApiDocumentLive = Layer.effect(
  ApiDocument,
  Effect.map(fixedPrices, (prices) => ({ forBaseUrl: (baseUrl: string) => openApiDocument(baseUrl, prices) }))
)

export const SystemHandlers = handlersOf("system", systemOperations).pipe(Layer.provide(ApiDocumentLive))

export const TradeHandlers = handlersOf("trade", tradeOperations)

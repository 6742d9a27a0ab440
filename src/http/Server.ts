/**
 * Serves the HTTP contract on Node: the handlers, the edge middleware and the listening socket.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { AppConfig } from "../../layers/AppConfig.js"
import { TradeApi } from "./Api.js"
import { EdgeMiddleware } from "./Edge.js"
import { SystemHandlers, TradeHandlers } from "./Handlers.js"

export const ApiLive = HttpApiBuilder.api(TradeApi).pipe(
  Layer.provide([SystemHandlers, TradeHandlers])
)

/** The routes and middleware without a socket; tests serve it on `NodeHttpServer.layerTest`. */
export const HttpAppLive = HttpApiBuilder.serve().pipe(
  Layer.provide(EdgeMiddleware),
  Layer.provide(ApiLive)
)

const NodeServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
)

export const ServerLive = HttpAppLive.pipe(
  HttpServer.withLogAddress,
  Layer.provide(NodeServerLive)
)

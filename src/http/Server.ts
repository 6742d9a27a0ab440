/**
 * Serves the HTTP contract on Node: the handlers, the edge middleware and the listening socket (a
 * hardened Node server, see `Protocol.ts`).
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Api } from "./Api.js"
import { EdgeMiddleware } from "./Edge.js"
import { SystemHandlers, TradeHandlers } from "./Handlers.js"
import { McpRoute } from "./McpRoute.js"
import { hardenedServer } from "./Protocol.js"
import { ServiceImageRoute } from "./ServiceImage.js"

export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([SystemHandlers, TradeHandlers])
)

/** The routes and middleware without a socket; tests serve it on `NodeHttpServer.layerTest`. */
export const HttpAppLive = HttpApiBuilder.serve().pipe(
  Layer.provide(EdgeMiddleware),
  Layer.provide(ApiLive),
  // The MCP endpoint and the service's image are routes beside the HttpApi, inside the same edge middleware.
  Layer.provide([McpRoute, ServiceImageRoute])
)

/** The hardened Node server listening on `listen` (tests pass port 0). */
export const nodeServerOn = (listen: { readonly port: number; readonly host: string }) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const server = yield* hardenedServer((yield* AppConfig).http)
      return NodeHttpServer.layer(() => server, listen)
    })
  ).pipe(Layer.provide(AppConfig.Default))

const NodeServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => nodeServerOn({ port: config.port, host: config.host }))
)

export const ServerLive = HttpAppLive.pipe(
  HttpServer.withLogAddress,
  Layer.provide(NodeServerLive)
)

/**
 * Serves the HTTP contract on Node: the handlers, the edge middleware and the listening socket (a
 * hardened Node server, see `Protocol.ts`).
 */
import { Etag, FileSystem, HttpApiBuilder, HttpMiddleware, HttpPlatform, HttpServer, Path } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer, Scope } from "effect"
import type { Server as NodeServer } from "node:http"
import { AppConfig } from "../../layers/AppConfig.js"
import { Drain } from "../operations/Drain.js"
import { Health } from "../operations/table.js"
import { Api } from "./Api.js"
import { EdgeMiddleware } from "./Edge.js"
import { SystemHandlers, TradeHandlers } from "./Handlers.js"
import { McpRoute } from "./McpRoute.js"
import { metricsPath, MetricsRoute } from "./MetricsRoute.js"
import { hardenedServer } from "./Protocol.js"
import { ServiceImageRoute } from "./ServiceImage.js"

export const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide([SystemHandlers, TradeHandlers])
)

type RequestServices =
  | HttpServer.HttpServer
  | Scope.Scope
  | HttpPlatform.HttpPlatform
  | Etag.Generator
  | FileSystem.FileSystem
  | Path.Path

const requestServices: (all: Context.Context<RequestServices>) => Context.Context<RequestServices> = Context.pick(
  HttpServer.HttpServer,
  Scope.Scope,
  HttpPlatform.HttpPlatform,
  Etag.Generator,
  FileSystem.FileSystem,
  Path.Path
)

/**
 * `HttpApiBuilder.serve()`, each request's fiber holding only the services the platform serves a request
 * with. What a handler needs it has from where it was built (HttpApi's groups, ./Dispatch.ts, the MCP
 * route's runtime), and the platform copies a request's whole context several times over per request.
 */
const serveLean = Layer.scopedDiscard(
  Effect.flatMap(HttpApiBuilder.httpApp, (app) => Effect.mapInputContext(HttpServer.serveEffect(app), requestServices))
).pipe(Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]))

/**
 * The routes and middleware without a socket; tests serve it on `NodeHttpServer.layerTest`. Health
 * checks get no `http.server` span: monitors and balancers poll them, and the span (URL, every header
 * as an attribute) cost more than the check itself.
 */
export const HttpAppLive = Layer.unwrapEffect(Effect.map(metricsPath, (metrics) =>
  serveLean.pipe(
    HttpMiddleware.withTracerDisabledForUrls([Health.path, metrics]),
    Layer.provide(EdgeMiddleware),
    Layer.provide(ApiLive),
    // The MCP endpoint, the service's image and the metrics are routes beside the HttpApi, inside the same edge middleware.
    Layer.provide([McpRoute, ServiceImageRoute, MetricsRoute])
  )))

/** The hardened Node server listening on `listen` (tests pass port 0); `watch` sees it before it listens. */
export const nodeServerOn = (
  listen: { readonly port: number; readonly host: string },
  watch: (server: NodeServer) => void = () => undefined
) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const server = yield* hardenedServer((yield* AppConfig).http)
      watch(server)
      return NodeHttpServer.layer(() => server, listen)
    })
  ).pipe(Layer.provide(AppConfig.Default))

// The service's own server counts its requests in flight, for draining.
const NodeServerLive = Layer.unwrapEffect(
  Effect.zipWith(
    AppConfig,
    Drain,
    (config, drain) => nodeServerOn({ port: config.port, host: config.host }, drain.track)
  )
)

/**
 * Built after the server, so its finalizer runs first on shutdown: the replica drains (../operations/Drain.ts)
 * while the server still answers, then the server stops.
 */
const DrainOnShutdown = Layer.scopedDiscard(
  Effect.flatMap(Drain, (drain) => Effect.addFinalizer(() => drain.drain))
)

export const ServerLive = DrainOnShutdown.pipe(
  Layer.provide(HttpAppLive.pipe(HttpServer.withLogAddress, Layer.provide(NodeServerLive)))
)

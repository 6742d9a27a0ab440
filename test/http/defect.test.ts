/**
 * Fault injection: a handler that dies. No real part of the service can be made to die on request,
 * so this mounts a one-endpoint API (named as a fault) behind the real edge middleware.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpServer } from "@effect/platform"
import { NodeContext, NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Schema } from "effect"
import { createServer } from "node:http"
import { afterAll, beforeAll, expect, it } from "vitest"
import { AppConfig } from "../../layers/AppConfig.js"
import { edgeMiddleware } from "../../src/http/Edge.js"
import { readJson } from "../support/http.js"

class FaultGroup extends HttpApiGroup.make("fault").add(
  HttpApiEndpoint.get("dies", "/fault/dies").addSuccess(Schema.String)
) {}
class FaultApi extends HttpApi.make("fault").add(FaultGroup) {}

const FaultHandlers = HttpApiBuilder.group(
  FaultApi,
  "fault",
  (handlers) => handlers.handle("dies", () => Effect.die(new Error("secret detail at /srv/app/handler.ts:42")))
)

const runtime = ManagedRuntime.make(
  HttpApiBuilder.serve().pipe(
    // No operation to serve: the fault endpoint goes through HttpApi.
    Layer.provide(edgeMiddleware(Effect.succeed(() => undefined))),
    Layer.provide(HttpApiBuilder.api(FaultApi).pipe(Layer.provide(FaultHandlers))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(AppConfig.Default),
    Layer.provide(NodeContext.layer),
    Layer.provide(Logger.minimumLogLevel(LogLevel.None))
  )
)
let baseUrl = ""
beforeAll(async () => {
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  baseUrl = `http://127.0.0.1:${address.port}`
})
afterAll(() => runtime.dispose())

it("turns a defect into 500 internal with the request id and no trace of its cause", async () => {
  const response = await fetch(`${baseUrl}/fault/dies`, { headers: { "x-request-id": "trace-me-1" } })
  expect(response.status).toBe(500)
  expect(response.headers.get("x-request-id")).toBe("trace-me-1")
  const text = await response.clone().text()
  expect(text).not.toContain("secret")
  expect(text).not.toContain("handler.ts")
  expect(await readJson(response)).toEqual({
    error: { code: "internal", message: "internal error", hint: "quote request id trace-me-1 when reporting it" },
    next: "stop"
  })
})

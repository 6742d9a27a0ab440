/**
 * Serves the service's routes on an ephemeral port for a test file and gives plain `fetch` access,
 * as a curl user would have.
 */
import { HttpServer } from "@effect/platform"
import { type Clock, Effect, Layer, ManagedRuntime } from "effect"
import { Deployment } from "../../layers/Deployment.js"
import { appRoutesWith } from "../../src/App.js"
import { nodeServerOn } from "../../src/http/Server.js"
import { testSettings } from "./services.js"

export interface TestServer {
  readonly baseUrl: string
  readonly close: () => Promise<void>
}

/**
 * `settings` override the test settings (the devnet treasury as fee recipient and settlement key, a
 * fresh data directory, fast polling) and the environment. `clock`, when given, is the clock of the
 * whole server: its services and every request (see ./clock.ts).
 */
export const startTestServer = async <E>(
  deployment: Layer.Layer<Deployment, E>,
  settings: Readonly<Record<string, string>> = {},
  options: { readonly clock?: Clock.Clock; readonly tracing?: Layer.Layer<never> } = {}
): Promise<TestServer> => {
  const layer = appRoutesWith(deployment).pipe(
    Layer.provide(options.tracing ?? Layer.empty),
    Layer.provideMerge(nodeServerOn({ port: 0, host: "127.0.0.1" })),
    Layer.provide(testSettings(settings)),
    Layer.provide(options.clock === undefined ? Layer.empty : Layer.setClock(options.clock))
  )
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: () => runtime.dispose()
  }
}

/** The body of a JSON answer, loosely typed: tests assert its shape field by field. */
export const readJson = (response: Response): Promise<any> => response.json()

/** A venue file whose contracts no chain holds: Uniswap v2 and v4 on chain 5042. */
export const offlineVenueFile = {
  chainId: 5042,
  permit2: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
  venues: [
    {
      id: "uniswap-v2",
      name: "Uniswap v2",
      family: "v2",
      factory: "0x1111111111111111111111111111111111111111",
      pairInitCodeHash: `0x${"00".repeat(32)}`,
      fee: { fixed: 3000 }
    },
    {
      id: "uniswap-v4",
      name: "Uniswap v4",
      family: "v4",
      poolManager: "0x2222222222222222222222222222222222222222",
      stateView: "0x3333333333333333333333333333333333333333",
      quoter: "0x4444444444444444444444444444444444444444"
    }
  ]
} as const

/**
 * A deployment whose chain never answers: for files that need only what the service says about
 * itself (its OpenAPI document, registration, image, MCP tool list, the edge), never the chain.
 */
export const offlineDeployment = Layer.succeed(Deployment, {
  rpcUrl: "http://127.0.0.1:9",
  chainId: 5042,
  startBlock: 0,
  contracts: {},
  tokenList: { name: "test", timestamp: "2026-11-21T00:00:00Z", version: { major: 1, minor: 0, patch: 0 }, tokens: [] },
  venues: offlineVenueFile
})

/**
 * The HTTP API through a client derived from its contract (`HttpApiClient.make(Api)`), served on
 * `NodeHttpServer.layerTest` over the shared devnet: the success path of every operation in the table,
 * decoded with the same schemas the OpenAPI document publishes. Wire-level checks (statuses, headers,
 * envelopes, bodies the client could not even send) stay with raw `fetch` in ./onDevnet.test.ts.
 */
import { HttpApiClient } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { getAddress } from "viem"
import { SERVICE_VERSION } from "../../schema/Service.js"
import { appRoutesWith } from "../../src/App.js"
import { Api } from "../../src/http/Api.js"
import { operations } from "../../src/operations/table.js"
import { sharedManifest, tokenAddress } from "../support/devnet.js"
import { deploymentOf, testSettings } from "../support/services.js"

const manifest = sharedManifest()

const Served = appRoutesWith(deploymentOf(manifest)).pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  // Search's price and payment are the payment tests' subject (test/payment/http*.test.ts); free here.
  Layer.provide(testSettings({ PRICE_SEARCH: "0" }))
)

const client = HttpApiClient.make(Api)

/** Health, asked until the index has caught up with the chain. */
const healthy = Effect.flatMap(client, (api) => api.system.health()).pipe(
  Effect.filterOrFail((health) => health.status === "ok"),
  Effect.retry(Schedule.spaced("100 millis")),
  Effect.timeout("30 seconds")
)

// A real server and chain: the real clock, not the TestClock.
layer(Served, { timeout: 60_000, excludeTestServices: true })("the HTTP API through its contract's client", (it) => {
  it.effect("health: ok, on the devnet's chain, with the service's version", () =>
    Effect.gen(function*() {
      const health = yield* healthy
      expect(health.chainId).toBe(manifest.chainId)
      expect(health.network).toBe(`eip155:${manifest.chainId}`)
      expect(health.rpc.reachable).toBe(true)
      expect(health.version).toBe(SERVICE_VERSION)
      expect(health.indexLagBlocks).not.toBeNull()
    }))

  it.effect("search: a verified ticker resolves to the canonical token, checksummed", () =>
    Effect.gen(function*() {
      yield* healthy
      const api = yield* client
      const answer = yield* api.trade.search({ payload: { query: "weth", limit: 3 } })
      expect(answer.resolution).toBe("verified")
      expect(answer.results[0]!.address).toBe(getAddress(tokenAddress(manifest, "WETH")))
      expect(answer.results[0]!.verification.status).toBe("verified")
      expect(answer.results.length).toBeLessThanOrEqual(3)
    }))

  it.effect("venues: the three Uniswap venues and the launchpad's curve, USDC among the hubs", () =>
    Effect.gen(function*() {
      const api = yield* client
      const answer = yield* api.trade.venues()
      expect(answer.venues.map((venue) => venue.id).sort()).toEqual([
        "launchpad",
        "uniswap-v2",
        "uniswap-v3",
        "uniswap-v4"
      ])
      expect(answer.hubs.map((hub) => hub.symbol)).toContain("USDC")
    }))

  it.effect("registration and openapi: the documents name each other and every operation's path", () =>
    Effect.gen(function*() {
      const api = yield* client
      const registration = yield* api.system.registration()
      expect(registration.services.find((service) => service.name === "OpenAPI")?.endpoint).toMatch(
        /\/openapi\.json$/
      )
      const document = yield* api.system.openapi()
      const paths = document["paths"] as Record<string, Record<string, unknown>>
      for (const op of operations) expect(paths[op.path]?.[op.method.toLowerCase()]).toBeDefined()
    }))
})

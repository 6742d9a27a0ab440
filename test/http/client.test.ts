/**
 * The HTTP API through a client derived from its contract (`HttpApiClient.make(Api)`), served on
 * `NodeHttpServer.layerTest` over the shared devnet: the success path of every operation in the table,
 * decoded with the same schemas the OpenAPI document publishes. Wire-level checks (statuses, headers,
 * envelopes, bodies the client could not even send) stay with raw `fetch` in ./onDevnet.test.ts.
 */
import { HttpApiClient } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schedule, Schema } from "effect"
import { getAddress, type Hex, keccak256, toHex } from "viem"
import { NoPendingSwap } from "../../schema/Errors.js"
import { Address } from "../../schema/Primitives.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { SERVICE_VERSION } from "../../schema/Service.js"
import { SwapRequest, SwapTxRequest } from "../../schema/Swap.js"
import { appRoutesWith } from "../../src/App.js"
import { Api } from "../../src/http/Api.js"
import { operations } from "../../src/operations/table.js"
import { manifestAccount, sharedManifest, tokenAddress } from "../support/devnet.js"
import { deploymentOf, testSettings } from "../support/services.js"

const manifest = sharedManifest()

const Served = appRoutesWith(deploymentOf(manifest)).pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  // Prices and payments are the payment tests' subject (test/payment/, test/swap/payment.test.ts); free here.
  Layer.provide(testSettings({ PRICE_SEARCH: "0", PRICE_QUOTE: "0", PRICE_SWAP_SMALL: "0" }))
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

  it.effect("venues: the three Uniswap venues, the launchpad's curve and the forks, USDC among the hubs", () =>
    Effect.gen(function*() {
      const api = yield* client
      const answer = yield* api.trade.venues()
      // The venue file's venues, in its order: the Uniswap set, the launchpad, then the forks.
      expect(answer.venues.map((venue) => venue.id)).toEqual(manifest.venues!.venues.map((venue) => venue.id))
      expect(answer.venues.map((venue) => venue.id)).toContain("fork-v3")
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
      const paths = document["paths"] as Record<string, Record<string, { operationId?: string }>>
      for (const op of operations) {
        expect(paths[op.path]?.[op.method.toLowerCase()]?.operationId).toBe(`${op.group}.${op.name}`)
      }
      expect(paths["/.well-known/agent-registration.json"]?.["get"]?.operationId).toBe("system.registration")
      expect(paths["/openapi.json"]?.["get"]?.operationId).toBe("system.openapi")
    }))

  it.effect("quote, swap, swap/tx and receipt: a USDC buy of WETH quoted, built, and followed", () =>
    Effect.gen(function*() {
      yield* healthy
      const api = yield* client
      const address = Schema.decodeSync(Address)
      const taker = address(manifestAccount(manifest, 3).address)
      const weth = address(tokenAddress(manifest, "WETH"))
      // As a caller writes them; the defaults (side, slippage, lifetime…) come from the request schemas.
      const quoteRequest = Schema.decodeSync(QuoteRequest)
      const swapRequest = Schema.decodeSync(SwapRequest)
      const swapTxRequest = Schema.decodeSync(SwapTxRequest)
      const quoted = yield* api.trade.quote({
        payload: quoteRequest({ sell: manifest.contracts["usdc"]!, buy: weth, amount: "10", taker })
      })
      expect(quoted.quoteId).toMatch(/^q_/)
      expect(quoted.buy.address).toBe(weth)
      expect(quoted.best.amountInRaw).toBe("10000000")
      expect(BigInt(quoted.best.amountOutQuotedRaw)).toBeGreaterThan(0n)
      expect(quoted.next).toBe("swap")

      const built = yield* api.trade.swap({
        payload: swapRequest({ quoteId: quoted.quoteId, taker, approval: "approve" })
      })
      expect(built.quoteId).toBe(quoted.quoteId)
      expect(built.taker).toBe(taker)
      expect(built.transactions.at(-1)?.purpose).toBe("swap")
      expect(BigInt(built.minAmountOut)).toBeGreaterThan(0n)
      expect(built.signatures).toEqual([])

      // No permit was asked for, so there is no permit round to finish: 409 no_pending_swap.
      const noRound = yield* Effect.flip(api.trade.swapTx({
        payload: swapTxRequest({
          quoteId: quoted.quoteId,
          taker,
          permit: {
            message: {
              details: { token: weth, amount: "1", expiration: "1900000000", nonce: 0 },
              spender: taker,
              sigDeadline: "1900000000"
            },
            signature: toHex(new Uint8Array(65))
          }
        })
      }))
      expect(noRound).toBeInstanceOf(NoPendingSwap)

      // A hash the chain has never seen: the receipt is pending, to be asked again.
      const unsent: Hex = keccak256(toHex(quoted.quoteId))
      const receipt = yield* api.trade.receipt({ payload: { quoteId: quoted.quoteId, txHashes: [unsent] } })
      expect(receipt.quoteId).toBe(quoted.quoteId)
      expect(receipt.result).toBe("pending")
      expect(receipt.next).toBe("retry")
    }))
})

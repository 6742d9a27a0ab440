/**
 * Venues as the file names them, on the shared devnet: a large order's plan uses the fork venues beside
 * Uniswap's own (each hop under its venue's file id); excluding a venue removes every route through it;
 * the venue listing shows the file's venues, every one executable (the devnet's router is deployed for
 * the whole file); and with a venue file that leaves a factory out, none of that factory's pools is
 * indexed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, HashMap, Schema } from "effect"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import type { VenueFile } from "../../schema/VenueFile.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { venues } from "../../src/operations/venues.js"
import { quote } from "../../src/quote/Quote.js"
import { poolByLabel, sharedManifest, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"

const manifest = sharedManifest()
const runtime = indexRuntime(manifest)
const file = manifest.venues!
const withoutForkV3: VenueFile = {
  ...file,
  venues: [file.venues[0], ...file.venues.slice(1).filter((venue) => venue.id !== "fork-v3")]
}
const narrowRuntime = indexRuntime({ ...manifest, venues: withoutForkV3 })
const USDC = tokenAddress(manifest, "USDC")
const WETH = tokenAddress(manifest, "WETH")

beforeAll(() => Promise.all([runtime.runPromise(synced), narrowRuntime.runPromise(synced)]), 60_000)
afterAll(() => Promise.all([runtime.dispose(), narrowRuntime.dispose()]))

const ask = (body: Record<string, unknown>) =>
  runtime.runPromise(Schema.decodeUnknown(QuoteRequest)(body).pipe(Effect.orDie, Effect.flatMap(quote)))

const hopVenues = (answer: Awaited<ReturnType<typeof ask>>) => ({
  best: new Set(answer.best.legs.flatMap((leg) => leg.hops.map((hop) => hop.venue))),
  routes: new Set(answer.routes.flatMap((route) => route.routeId.split("|").slice(1).map((hop) => hop.split(":")[0])))
})

describe("venues from the venue file", () => {
  const everyVenue = file.venues.filter((venue) => venue.family !== "launchpad").map((venue) => venue.id)

  it("a large WETH order splits across venues of different forks, each hop named by its file id", async () => {
    const answer = await ask({ sell: USDC, buy: WETH, amount: "400000" })
    const { best, routes } = hopVenues(answer)
    expect(answer.best.executable).toBe(true)
    expect([...best].filter((id) => !id.startsWith("uniswap-")).length).toBeGreaterThan(0)
    expect([...best].filter((id) => id.startsWith("uniswap-")).length).toBeGreaterThan(0)
    expect(routes.has("lowfee-v2") && routes.has("fork-v3")).toBe(true)
  })

  it("excluding a venue removes every route through it", async () => {
    const answer = await ask({
      sell: USDC,
      buy: WETH,
      amount: "400000",
      venues: everyVenue,
      excludeVenues: ["lowfee-v2", "fork-v3"]
    })
    const { best, routes } = hopVenues(answer)
    expect(best.has("lowfee-v2") || best.has("fork-v3")).toBe(false)
    expect(routes.has("lowfee-v2") || routes.has("fork-v3")).toBe(false)
    expect(routes.size).toBeGreaterThan(0)
  })

  it("the listing shows the file's venues in order, each executable by the router deployed for the file", async () => {
    const listing = await runtime.runPromise(venues())
    expect(listing.venues.map((venue) => [venue.id, venue.kind, venue.executable])).toEqual([
      ["uniswap-v2", "uniswap_v2", true],
      ["uniswap-v3", "uniswap_v3", true],
      ["uniswap-v4", "uniswap_v4", true],
      ["launchpad", "launchpad", true],
      ["lowfee-v2", "uniswap_v2", true],
      ["fork-v3", "uniswap_v3", true],
      ["pairfee-v2", "uniswap_v2", true],
      ["pancake-v3", "uniswap_v3", true]
    ])
  })

  it("a pool of a factory not in the file is ignored", async () => {
    const indexedIds = (run: typeof runtime) =>
      run.runPromise(Effect.flatMap(ChainIndex, (index) => index.snapshot)).then((snapshot) =>
        new Set<string>([...HashMap.keys(snapshot.state.pools)])
      )
    const fork = poolByLabel(manifest, "fork-v3:WETH/USDC:2500").id.toLowerCase()
    const canonical = poolByLabel(manifest, "v3:WETH/USDC:500").id.toLowerCase()
    const all = await indexedIds(runtime)
    const narrow = await indexedIds(narrowRuntime)
    expect(all.has(fork) && all.has(canonical)).toBe(true)
    expect(narrow.has(canonical)).toBe(true)
    expect(narrow.has(fork)).toBe(false)
  })
})

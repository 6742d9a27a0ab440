/**
 * The router as the service sees it: the devnet's manifest names it `router`, it is wired to exactly the
 * registries the venue listing shows (so every listed venue kind is executable, and the launchpad too),
 * `ROUTER_ADDRESS` points the service at a router on another chain, and no router anywhere makes every
 * venue non-executable (spec rule 3).
 */
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { getAddress, parseAbi } from "viem"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment } from "../../layers/Deployment.js"
import { Venues } from "../../layers/Venues.js"
import { venueTableMismatch } from "../../schema/VenueTable.js"
import { readVenueTable } from "../../src/execution/DeployedVenueTable.js"
import { routerVenuesOf } from "../../src/execution/FromRoute.js"
import { clientsFor, contractAddress, sharedManifest } from "../support/devnet.js"

const routerConfigAbi = parseAbi([
  "function permit2() view returns (address)",
  "function usdc() view returns (address)",
  "function nativeMode() view returns (uint8)"
])

describe("the router in the deployment", () => {
  it("is the manifest's `router`, configured with the registries of every venue the listing marks executable", async () => {
    const manifest = sharedManifest()
    const router = contractAddress(manifest, "router")
    const reader = clientsFor(manifest).public
    const read = (functionName: (typeof routerConfigAbi)[number]["name"]) =>
      reader.readContract({ address: router, abi: routerConfigAbi, functionName })
    const venues = Venues.make(manifest.venues!, [])
    expect(venues.all.map((venue) => [venue.id, venue.executable, venue.contracts["router"]])).toEqual([
      ["uniswap-v2", true, router],
      ["uniswap-v3", true, router],
      ["uniswap-v4", true, router],
      ["launchpad", true, router],
      ["lowfee-v2", true, router],
      ["fork-v3", true, router],
      ["pairfee-v2", true, router],
      ["pancake-v3", true, router]
    ])
    // Its venue table is the listing's venues in the devnet's order, each with its own registry.
    const table = await readVenueTable(reader, router)
    expect(venueTableMismatch(manifest.venues!, table)).toBeUndefined()
    expect(table.map((venue) => venue.family)).toEqual([0, 1, 2, 3, 0, 1, 0, 1])
    venues.all.forEach((venue, i) => {
      const listed = venue.contracts["factory"] ?? venue.contracts["poolManager"] ?? venue.contracts["launchpad"]
      expect(getAddress(listed!), venue.id).toBe(table[i]!.registry)
      expect(routerVenuesOf(manifest.venues!).get(venue.id)?.index).toBe(i)
    })
    expect(await read("permit2")).toBe(contractAddress(manifest, "permit2"))
    expect(await read("usdc")).toBe(contractAddress(manifest, "usdc"))
    // The devnet's USDC mints from native value: NATIVE_DEPOSIT.
    expect(await read("nativeMode")).toBe(1)
  })

  it("without a router no venue is executable", () => {
    const { router: _router, ...file } = sharedManifest().venues!
    const venues = Venues.make(file, [])
    expect(venues.all.length).toBe(file.venues.length)
    expect(venues.all.every((venue) => !venue.executable && venue.contracts["router"] === undefined)).toBe(true)
  })

  /** A manifest with `contracts` whose venue file (its own) names `router` (`null`: none), read as `npm start` reads it. */
  const deploymentWith = (
    settings: Record<string, string>,
    contracts: Record<string, string>,
    router: string | null = sharedManifest().venues!.router ?? null
  ) => {
    const manifestPath = join(tmpdir(), `router-manifest-${process.pid}-${Math.random().toString(16).slice(2)}.json`)
    const { router: _router, ...venues } = sharedManifest().venues!
    const file = router === null ? venues : { ...venues, router }
    writeFileSync(manifestPath, JSON.stringify({ ...sharedManifest(), contracts, venues: file }))
    const layer = Deployment.layerManifestFile.pipe(
      Layer.provide(AppConfig.Default),
      // No VENUES_FILE: the manifest's own venue file is read.
      Layer.provide(
        AppConfig.withSettings({
          MANIFEST_PATH: manifestPath,
          RPC_URL: "http://127.0.0.1:1",
          ...settings
        })
      ),
      Layer.provide(NodeContext.layer)
    )
    return Effect.either(Effect.provide(Deployment, layer))
  }

  it.effect("ROUTER_ADDRESS names the router of another chain, over the manifest or where it has none", () =>
    Effect.gen(function*() {
      const { router: _router, ...withoutRouter } = sharedManifest().contracts
      const elsewhere = "0x00000000000000000000000000000000000c0ffe"
      const configured = yield* deploymentWith({ ROUTER_ADDRESS: elsewhere }, withoutRouter)
      expect(configured._tag === "Right" && configured.right.contracts["router"]).toBe(getAddress(elsewhere))
      const overriding = yield* deploymentWith({ ROUTER_ADDRESS: elsewhere }, sharedManifest().contracts)
      expect(overriding._tag === "Right" && overriding.right.contracts["router"]).toBe(getAddress(elsewhere))
      const unset = yield* deploymentWith({}, withoutRouter, null)
      expect(unset._tag === "Right" && unset.right.contracts["router"]).toBe(undefined)
    }))

  it.effect("without ROUTER_ADDRESS the venue file's router is executed through, over the manifest's", () =>
    Effect.gen(function*() {
      // A router deployed for a file with a venue added: the manifest's still names the old one.
      const redeployed = getAddress("0x00000000000000000000000000000000000c0ffe")
      const result = yield* deploymentWith({}, sharedManifest().contracts, redeployed)
      expect(result._tag === "Right" && [result.right.contracts["router"], result.right.venues.router])
        .toEqual([redeployed, redeployed])
      const manifestOnly = yield* deploymentWith({}, sharedManifest().contracts, null)
      expect(manifestOnly._tag === "Right" && manifestOnly.right.venues.router).toBe(
        sharedManifest().contracts["router"]
      )
    }))

  it.effect("a named venue file that does not exist, or no MANIFEST_PATH with RPC_URL, is refused, never replaced", () =>
    Effect.gen(function*() {
      const absent = yield* deploymentWith({ VENUES_FILE: "/nonexistent/venues.json" }, sharedManifest().contracts)
      expect(absent._tag === "Left" && absent.left.message).toBe("VENUES_FILE /nonexistent/venues.json does not exist")
      const unnamed = yield* Effect.either(Effect.provide(
        Deployment,
        Deployment.layerManifestFile.pipe(
          Layer.provide(AppConfig.Default),
          Layer.provide(AppConfig.withSettings({ RPC_URL: "http://127.0.0.1:1" })),
          Layer.provide(NodeContext.layer)
        )
      ))
      expect(unnamed._tag === "Left" && String(unnamed.left.message)).toMatch(/^MANIFEST_PATH is not set: with RPC_URL/)
    }))

  it.effect("a malformed ROUTER_ADDRESS fails at start-up instead of being used", () =>
    Effect.gen(function*() {
      const result = yield* deploymentWith({ ROUTER_ADDRESS: "0x1234" }, sharedManifest().contracts)
      expect(result._tag).toBe("Left")
    }))
})

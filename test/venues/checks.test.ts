/**
 * Start-up checks of the venue file against the devnet chain: the devnet's own file passes; a wrong init
 * code hash, a fee tier the factory disagrees with, a Permit2 address holding other code and a contract
 * address without code, a per-pair fee getter the venue's pairs lack and a fee denominator the pairs'
 * fees do not fit each refuse the start with a message that names the entry, and so does a router
 * whose venue table is not the file's or that speaks another plan encoding.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { getAddress } from "viem"
import { Deployment } from "../../layers/Deployment.js"
import { checkedDeployment } from "../../layers/VenueChecks.js"
import { lowerAddress } from "../../schema/Chain.js"
import type { VenueEntry, VenueFile } from "../../schema/VenueFile.js"
import { PLAN_ENCODING } from "../../src/execution/RouterAbi.js"
import { checkedRouter } from "../../src/execution/RouterCheck.js"
import { sharedManifest } from "../support/devnet.js"

const devnetFile = (): VenueFile => sharedManifest().venues!

/** Starts the deployment layer as the service does; the refusal's message, or undefined when it starts. */
const startWith = (venues: VenueFile) =>
  Effect.gen(function*() {
    const deployment = Layer.succeed(Deployment, { ...Deployment.make(sharedManifest()), venues })
    const exit = yield* Effect.exit(Effect.provide(Deployment, checkedRouter(checkedDeployment(deployment))))
    return Exit.match(exit, {
      onSuccess: () => undefined,
      onFailure: (cause) => JSON.stringify(cause.toJSON())
    })
  })

const withVenue = (file: VenueFile, id: string, change: (entry: VenueEntry) => VenueEntry): VenueFile => ({
  ...file,
  venues: file.venues.map((entry) => entry.id === id ? change(entry) : entry) as unknown as VenueFile["venues"]
})

const WRONG_HASH: `0x${string}` = `0x${"ab".repeat(32)}`

describe("start-up checks of the venue file", () => {
  it.effect("the devnet's own file passes", () =>
    Effect.gen(function*() {
      expect(yield* startWith(devnetFile())).toBe(undefined)
    }))

  it.effect("a wrong v2 pair init code hash refuses, naming the venue", () =>
    Effect.gen(function*() {
      const right = devnetFile().venues.find((entry) => entry.id === "uniswap-v2")
      const file = withVenue(devnetFile(), "uniswap-v2", (entry) => ({ ...entry, pairInitCodeHash: WRONG_HASH }))
      const message = yield* startWith(file)
      expect(message).toMatch(
        /venue uniswap-v2: pairInitCodeHash 0xab(ab)+ is wrong: the factory's first pair 0x[0-9a-fA-F]{40} is not at the CREATE2 address it gives, 0x[0-9a-fA-F]{40}/
      )
      // the fix: the hash of the init code the factory embeds, the one that puts its first pair where it is
      expect(right?.family === "v2" && message).toContain(
        `hashes to ${right?.family === "v2" && right.pairInitCodeHash}: set pairInitCodeHash to it`
      )
      for (const address of message?.match(/0x[0-9a-fA-F]{40}\b/g) ?? []) expect(address).toBe(getAddress(address))
    }))

  it.effect("a wrong v3 pool init code hash refuses, naming the venue", () =>
    Effect.gen(function*() {
      const right = devnetFile().venues.find((entry) => entry.id === "uniswap-v3")
      const file = withVenue(devnetFile(), "uniswap-v3", (entry) => ({ ...entry, poolInitCodeHash: WRONG_HASH }))
      const message = yield* startWith(file)
      expect(message).toContain("venue uniswap-v3: poolInitCodeHash")
      expect(message).toContain(
        `hashes to ${right?.family === "v3" && right.poolInitCodeHash}: set poolInitCodeHash to it`
      )
    }))

  it.effect("a fee tier the factory disagrees with refuses, naming the venue and the tier", () =>
    Effect.gen(function*() {
      const wrongSpacing = withVenue(
        devnetFile(),
        "uniswap-v3",
        (entry) => entry.family === "v3" ? { ...entry, feeTiers: [{ fee: 500, tickSpacing: 60 }] } : entry
      )
      expect(yield* startWith(wrongSpacing)).toContain("venue uniswap-v3: fee tier 500 has tick spacing 10")
      const notEnabled = withVenue(
        devnetFile(),
        "uniswap-v3",
        (entry) => entry.family === "v3" ? { ...entry, feeTiers: [{ fee: 2500, tickSpacing: 50 }] } : entry
      )
      expect(yield* startWith(notEnabled)).toContain("venue uniswap-v3: fee tier 2500 has tick spacing 0")
    }))

  it.effect("a Permit2 address holding other code refuses, naming permit2", () =>
    Effect.gen(function*() {
      // The v2 factory: a contract with code, but not Permit2's.
      const other = sharedManifest().contracts["v2Factory"]!
      const message = yield* startWith({ ...devnetFile(), permit2: other })
      expect(message).toContain(`permit2: the code at ${getAddress(other)} is not Permit2`)
    }))

  it.effect("a venue contract without code refuses, naming the venue and its role", () =>
    Effect.gen(function*() {
      const empty = lowerAddress("0x00000000000000000000000000000000000000e1")
      const file = withVenue(devnetFile(), "uniswap-v4", (entry) => ({ ...entry, quoter: empty }))
      expect(yield* startWith(file)).toContain(`venue uniswap-v4: quoter ${getAddress(empty)} has no code at the RPC`)
    }))

  it.effect("a router deployed for another venue table refuses, naming the first entry that differs", () =>
    Effect.gen(function*() {
      const file = devnetFile()
      // The same venues, the two forks swapped: the router's index 4 is lowfee-v2, the file's fork-v3.
      const [v2, v3, v4, launchpad, lowFee, fork, ...rest] = file.venues
      const swapped = { ...file, venues: [v2, v3, v4, launchpad, fork!, lowFee!, ...rest] } as VenueFile
      expect(yield* startWith(swapped)).toContain(
        `router ${getAddress(file.router!)}: venue fork-v3 (index 4) differs between the router and the venue file`
      )
      const fewer = { ...file, venues: file.venues.slice(0, 4) } as unknown as VenueFile
      expect(yield* startWith(fewer)).toContain(
        `router ${getAddress(file.router!)}: the router has ${file.venues.length} venues, the venue file 4`
      )
    }))

  // A router of the first encoding has no PLAN_ENCODING getter; any contract without one answers alike.
  it.effect("a router without this service's plan encoding refuses in one line, naming both encodings", () =>
    Effect.gen(function*() {
      const file = devnetFile()
      const message = yield* startWith({ ...file, router: file.permit2 })
      expect(message).toContain(
        `router ${getAddress(file.permit2)}: its plan encoding is the first (no PLAN_ENCODING), this service ` +
          `sends encoding ${PLAN_ENCODING}; deploy a router of this version (npm run deploy-router)`
      )
    }))

  const perPair = (getter: string, denominator: number) =>
    withVenue(devnetFile(), "pairfee-v2", (entry) => ({ ...entry, fee: { perPair: { getter, denominator } } }))

  it.effect("a per-pair fee venue whose pairs lack the getter refuses, naming the venue and the getter", () =>
    Effect.gen(function*() {
      const message = yield* startWith(perPair("poolFee()", 10_000))
      expect(message).toMatch(/venue pairfee-v2: the pair 0x[0-9a-fA-F]{40} does not answer the fee getter poolFee\(\)/)
    }))

  it.effect("a per-pair fee the file's denominator cannot hold, or cannot price exactly, refuses", () =>
    Effect.gen(function*() {
      // The venue's first pair (WETH/USDC) charges 25 out of 10000: not below a denominator of 25.
      expect(yield* startWith(perPair("swapFee()", 25))).toMatch(
        /venue pairfee-v2: the pair 0x[0-9a-fA-F]{40} reports a fee of 25 through swapFee\(\), not below the file's denominator 25/
      )
      expect(yield* startWith(perPair("swapFee()", 30_000))).toContain(
        "venue pairfee-v2: fee denominator 30000 does not divide 1000000"
      )
    }))
})

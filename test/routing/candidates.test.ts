/**
 * Candidate paths: direct pools and chains through hubs only, up to `maxHops`, each token at most once,
 * venues filtered, empty pools skipped; a taxed token is priced for what arrives at every boundary.
 */
import { describe, expect, it } from "@effect/vitest"
import { candidatePaths, venueFilter } from "../../src/routing/Candidates.js"
import { marketFromPools } from "../../src/routing/Market.js"
import { runPath } from "../../src/routing/Path.js"
import { address, concentratedPool, FULL, v2Pool } from "./fixtures.js"

const [A, B, HUB, OTHER] = [address(0xa), address(0xb), address(0xc), address(0xd)]
const E18 = 10n ** 18n
const market = marketFromPools([
  v2Pool(1, A, B, 1000n * E18, 1000n * E18),
  concentratedPool(2, A, B, 0, [[...FULL, 10n ** 21n]]),
  v2Pool(3, A, HUB, 1000n * E18, 1000n * E18),
  v2Pool(4, HUB, B, 1000n * E18, 1000n * E18),
  v2Pool(5, A, OTHER, 1000n * E18, 1000n * E18),
  v2Pool(6, OTHER, B, 1000n * E18, 1000n * E18),
  v2Pool(7, HUB, OTHER, 1000n * E18, 1000n * E18),
  v2Pool(8, A, B, 0n, 0n)
])
const keys = (paths: ReadonlyArray<{ readonly hops: ReadonlyArray<{ readonly poolId: string }> }>) =>
  paths.map((path) => path.hops.map((hop) => Number(hop.poolId)).join(">"))

describe("candidatePaths", () => {
  it("direct pools, then paths through hubs only; empty pools skipped", () => {
    const paths = candidatePaths(market, A, B, { maxHops: 2, hubs: [HUB], allowVenue: () => true })
    expect(keys(paths)).toEqual(["1", "2", "3>4"])
  })

  it("maxHops bounds the length; a token is never visited twice", () => {
    const paths = candidatePaths(market, A, B, { maxHops: 3, hubs: [HUB, OTHER], allowVenue: () => true })
    expect(keys(paths)).toEqual(["1", "2", "3>4", "5>6", "3>7>6", "5>7>4"])
    expect(keys(candidatePaths(market, A, B, { maxHops: 1, hubs: [HUB], allowVenue: () => true }))).toEqual(["1", "2"])
  })

  it("venues allowed, excluded or disabled", () => {
    const paths = (allowVenue: (venue: string) => boolean) =>
      keys(candidatePaths(market, A, B, { maxHops: 2, hubs: [HUB], allowVenue }))
    expect(paths(venueFilter({ venues: ["uniswap-v3"] }))).toEqual(["2"])
    expect(paths(venueFilter({ excludeVenues: ["uniswap-v3"] }))).toEqual(["1", "3>4"])
    expect(paths(venueFilter({ venues: ["uniswap-v2", "uniswap-v3"], disabled: ["uniswap-v2"] }))).toEqual(["2"])
    expect(paths(venueFilter({}))).toEqual(["1", "2", "3>4"])
  })

  it("a taxed hub is taxed out of the first pool and again into the second", () => {
    const [path] = candidatePaths(market, A, B, { maxHops: 2, hubs: [HUB], allowVenue: (v) => v === "uniswap-v2" })
      .filter((p) => p.hops.length === 2)
    const taxes = { buyBps: (t: string) => (t === HUB ? 300n : 0n), sellBps: (t: string) => (t === HUB ? 500n : 0n) }
    const run = runPath(path!, "exactIn", E18, market.pool, taxes)
    if (run._tag !== "Filled") throw new Error(run._tag)
    const [first, second] = run.fills
    const out = (amountIn: bigint) => (amountIn * 9970n * 1000n * E18) / (1000n * E18 * 10_000n + amountIn * 9970n)
    const intoFirst = out(E18)
    expect(first!.amountOut).toBe(intoFirst - (intoFirst * 300n) / 10_000n)
    const reachesSecond = first!.amountOut - (first!.amountOut * 500n) / 10_000n
    expect(second!.amountOut).toBe(out(reachesSecond))
  })
})

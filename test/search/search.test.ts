/**
 * Issue 4 acceptance on the shared devnet's seeded market: verified ticker, impersonator, shared
 * ticker, and a token created after start-up by a plain viem script found within two blocks.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { getAddress } from "viem"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { search } from "../../src/operations/search.js"
import { marketMaker } from "../indexer/market.js"
import { freshAccount, sharedManifest, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"

const manifest = sharedManifest()
const runtime = indexRuntime(manifest)
const find = (query: string, limit = 10) => runtime.runPromise(search({ query, limit }))

beforeAll(async () => {
  await runtime.runPromise(synced)
})
afterAll(() => runtime.dispose())

describe("search on the seeded market", () => {
  it("a verified ticker answers the canonical token first, resolution verified", async () => {
    const answer = await find("WETH")
    expect(answer.resolution).toBe("verified")
    expect(answer.network).toBe("eip155:5042")
    expect(answer.rulesVersion).toMatch(/^rules-/)
    const [first, ...rest] = answer.results
    expect(first!.address).toBe(getAddress(tokenAddress(manifest, "WETH")))
    expect(first!.verification.status).toBe("verified")
    expect(first!.verification.coinId).toBe("weth")
    expect(first!.flags).not.toContain("impersonates_canonical")
    expect(first!.evidence.depthKind === "measured" || first!.evidence.depthKind === "lower_bound").toBe(true)
    expect(Number(first!.depth2PctUsd)).toBeGreaterThan(1_000)
    expect(first!.venues.length).toBeGreaterThan(1)
    expect(first!.safety).toBeNull()
    expect(first!.safetyByRoute).toEqual([])
    const impostor = rest.find((token) => token.address === getAddress(tokenAddress(manifest, "WETH_IMPOSTOR")))
    expect(impostor?.flags).toContain("impersonates_canonical")
    expect(impostor?.verification.status).toBe("unverified")
  })

  it("the impersonator never outranks the canonical token, even when searched by name", async () => {
    const answer = await find("wrapped ether")
    const addresses: ReadonlyArray<string> = answer.results.map((token) => token.address)
    const canonical = addresses.indexOf(getAddress(tokenAddress(manifest, "WETH")))
    const impostor = addresses.indexOf(getAddress(tokenAddress(manifest, "WETH_IMPOSTOR")))
    expect(canonical).toBe(0)
    expect(impostor).toBeGreaterThan(canonical)
  })

  it("two unrelated tokens with one ticker: shared_ticker and resolution ambiguous", async () => {
    const answer = await find("nova")
    expect(answer.resolution).toBe("ambiguous")
    const shared = [tokenAddress(manifest, "SHARED_A"), tokenAddress(manifest, "SHARED_B")].map((a) => getAddress(a))
    for (const address of shared) {
      const token = answer.results.find((result) => result.address === address)
      expect(token?.flags).toContain("shared_ticker")
      expect(token?.match).toBe("symbol")
    }
    expect(answer.results.filter((token) => token.evidence.firstWithTicker)).toHaveLength(1)
  })

  it("finds by address, by prefix, and reports launchpad states", async () => {
    const grad = await find(tokenAddress(manifest, "LAUNCH_GRAD").toLowerCase())
    expect(grad.results[0]!.match).toBe("address")
    expect(grad.results[0]!.state).toBe("graduated")
    expect(grad.results[0]!.origin.launchpad).toBe("launchpad")
    expect(grad.results[0]!.origin.creator).not.toBeNull()
    const curve = await find(tokenAddress(manifest, "LAUNCH_CURVE"))
    expect(curve.results[0]!.state).toBe("bonding_curve")
    expect(curve.results[0]!.evidence.depthKind).toBe("lower_bound")
    const prefix = await find("deg")
    expect(prefix.results[0]!.address).toBe(getAddress(tokenAddress(manifest, "DEGEN")))
    expect(prefix.results[0]!.match).toBe("prefix")
  })

  it("answers token_not_found when nothing matches", async () => {
    const missing = await runtime.runPromise(Effect.either(search({ query: "no-such-token-xyz", limit: 10 })))
    expect(Either.isLeft(missing) && missing.left._tag).toBe("TokenNotFound")
  })

  it("a pool created after start-up by a plain viem script is found within two blocks", async () => {
    const account = await freshAccount(manifest, "100000")
    // A ticker of its own: the shared devnet lives as long as the whole run.
    const ticker = `LATE${account.address.slice(2, 8).toUpperCase()}`
    const { block, pair, token: late } = await marketMaker(manifest, account).listToken("Late Arrival", ticker)
    await runtime.runPromise(
      Effect.flatMap(ChainIndex, (index) => index.waitFor(block)).pipe(Effect.timeout("5 seconds"))
    )
    const answer = await find(ticker)
    expect(answer.block).toBeLessThanOrEqual(block + 2)
    const found = answer.results[0]!
    expect(found.address).toBe(getAddress(late))
    expect(found.state).toBe("pool_only")
    expect(found.venues).toHaveLength(1)
    expect(found.venues[0]!.poolId).toBe(getAddress(pair))
    expect(found.holders).toBe(2)
    expect(Number(found.liquidityUsd)).toBeCloseTo(2_000, 0)
    expect(found.origin.creator).toBe(getAddress(account.address))
  })
})

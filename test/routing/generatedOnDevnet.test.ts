/**
 * Issue 34's acceptance on the devnet: over generated markets of 10–20 venues of the three families
 * (./generatedMarket.ts: the devnet's own 8 and 2–12 new v2, v3 and v4 venues deployed from their
 * bytecode, random depths, fees and ranges, one shallow pool 1–2 % cheaper, shared hub pools), the plan
 * the service quotes executes as priced: quote → swap (→ sign) → the router transaction sent as given →
 * receipt `pass`, the output delivered to the base unit as quoted (exactOut: at least the amount asked).
 * One of the plans has two paths through one pool.
 */
import { describe, expect, it } from "@effect/vitest"
import { parseAbi, parseEther, parseUnits } from "viem"
import { devnetOperator, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"
import { walletFor } from "../support/wallet.js"
import { harnessPerFile, operationsOf, takerOn, tradingWith } from "../swap/harness.js"
import { deployVenues, fundsNeeded, generateVenues } from "./generatedMarket.js"

const { harness } = harnessPerFile()
const mintAbi = parseAbi(["function mint(address to, uint256 amount)", "function deposit() payable"])

/** Seeds and how many venues each adds to the devnet's 8; orders in USDC (exactIn) and WETH (exactOut). */
const MARKETS = [
  { seed: 7, added: 12, sell: "60000", buy: "15" },
  { seed: 23, added: 4, sell: "25000", buy: "9" }
] as const

describe("generated markets of 10–20 venues, traded through the service", () => {
  it("exactIn and exactOut plans execute on the devnet as priced; one plan's paths share a pool", async () => {
    const { manifest } = harness.devnet
    const tokens = {
      USDC: tokenAddress(manifest, "USDC"),
      WETH: tokenAddress(manifest, "WETH"),
      WBTC: tokenAddress(manifest, "WBTC")
    }
    const funder = await takerOn(harness, "40000000", 0n)
    const lp = walletFor(manifest, funder.account)
    await lp.write(tokens.USDC, mintAbi, "deposit", [], parseEther("30000000"))
    const owner = walletFor(manifest, devnetOperator())
    await owner.write(tokens.WETH, mintAbi, "mint", [lp.address, fundsNeeded.weth])
    await owner.write(tokens.WBTC, mintAbi, "mint", [lp.address, fundsNeeded.wbtc])
    let shared = 0
    for (const market of MARKETS) {
      const specs = generateVenues(market.seed, market.added, tokens)
      const grown = await deployVenues(lp, manifest, `m${market.seed}`, specs, tokens)
      const runtime = indexRuntime(grown.manifest)
      try {
        await runtime.runPromise(synced)
        const { trade } = tradingWith(() => operationsOf(runtime))
        const taker = await takerOn({ ...harness, runtime }, "300000")
        for (
          const request of [
            { sell: tokens.USDC, buy: tokens.WETH, amount: market.sell, maxSplits: 3 },
            { sell: tokens.USDC, buy: tokens.WETH, amount: market.buy, side: "exactOut", maxSplits: 3 }
          ]
        ) {
          const { delivered, final, quoted } = await trade(taker, request)
          const legs = quoted.best.legs
          const venues = new Set(legs.flatMap((leg) => leg.hops.map((hop) => hop.venue)))
          const pools = legs.flatMap((leg) => leg.hops.map((hop) => hop.poolId))
          const sharing = new Set(pools).size < pools.length
          if (sharing) shared++
          console.log(
            `seed ${market.seed}, ${8 + market.added} venues, ${request.side ?? "exactIn"} ${request.amount}: ` +
              `${legs.length} legs over ${[...venues].join(", ")}${sharing ? ", two through one pool" : ""}; ` +
              `delivered ${delivered}`
          )
          // `trade` checked the receipt: `pass`, with `delivered` what the taker received.
          expect(delivered).toBe(BigInt(final.amountOutSimulated))
          expect(delivered).toBe(BigInt(quoted.best.amountOutQuotedRaw))
          if (request.side === "exactOut") expect(delivered).toBeGreaterThanOrEqual(parseUnits(request.amount, 18))
        }
      } finally {
        await runtime.dispose()
      }
    }
    expect(shared).toBeGreaterThan(0)
  }, 120_000)
})

/**
 * The safety verdict on the shared devnet's seeded tokens, measured at the index's block through the
 * router: the honeypot cannot be sold, the taxed token's taxes to the basis point, the capped token's
 * cap within 1 %, the thin token illiquid, a plain token ok (also on the v2.5 fork's pair, at its own
 * fee), USDC and operator-pinned assets pinned.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { parseAbi } from "viem"
import { getAmountIn } from "../../src/math/ConstantProduct.js"
import { SafetyCheck } from "../../src/safety/check/SafetyCheck.js"
import { clientsFor, poolByLabel, sharedManifest, tokenAddress } from "../support/devnet.js"
import { hexOf } from "../support/hex.js"
import { bestPath, checkToken, E6, safetyRuntime, type Snapshot, snapshotOf } from "./safetyHarness.js"

const manifest = sharedManifest()
const client = clientsFor(manifest).public
const WETH = tokenAddress(manifest, "WETH")
const runtime = safetyRuntime(manifest, { PINNED_ASSETS: WETH })
let snapshot: Snapshot

beforeAll(async () => {
  snapshot = await snapshotOf(runtime)
}, 60_000)
afterAll(() => runtime.dispose())

const check = (label: string, usdc: bigint) =>
  checkToken(runtime, snapshot, manifest, tokenAddress(manifest, label), usdc * E6)

const tokenAbi = parseAbi([
  "function buyTaxBps() view returns (uint16)",
  "function sellTaxBps() view returns (uint16)",
  "function maxTxAmount() view returns (uint256)"
])
const read = <T>(label: string, functionName: "buyTaxBps" | "sellTaxBps" | "maxTxAmount") =>
  client.readContract({
    address: tokenAddress(manifest, label),
    abi: tokenAbi,
    functionName,
    blockNumber: BigInt(snapshot.state.block)
  }) as Promise<T>

describe("safety verdicts on the seeded market", () => {
  it("the honeypot buys but cannot be sold back", async () => {
    const verdict = await check("HONEY", 100n)
    expect(verdict.verdict).toBe("cannot_sell")
    expect(verdict.canSell).toBe(false)
    expect(verdict.reason).toMatch(/sell-back reverted/)
    expect(verdict.scope).toEqual({ block: snapshot.state.block, walletProfile: "fresh_eoa" })
  })

  it("the taxed token's buy and sell taxes are measured to the basis point", async () => {
    const verdict = await check("TAX", 250n)
    const [buyTax, sellTax] = await Promise.all([read<number>("TAX", "buyTaxBps"), read<number>("TAX", "sellTaxBps")])
    expect(verdict.verdict).toBe("taxed")
    expect(verdict.canSell).toBe(true)
    expect(Math.abs(verdict.buyTaxBps! - buyTax)).toBeLessThanOrEqual(1)
    expect(Math.abs(verdict.sellTaxBps! - sellTax)).toBeLessThanOrEqual(1)
    // The round trip loses at least both taxes.
    expect(verdict.roundTripLossBps!).toBeGreaterThanOrEqual(
      buyTax + sellTax - 2 * Math.floor((buyTax * sellTax) / 10_000)
    )
  })

  it("the capped token is size_limited with maxBuyUsdc within 1 % of the true cap", async () => {
    const verdict = await check("CAPPED", 100n)
    const maxTx = await read<bigint>("CAPPED", "maxTxAmount")
    // The true cap: the USDC whose v2 output is exactly maxTxAmount (the pair is the only route).
    const pool = poolByLabel(manifest, "v2:CAPPED/USDC")
    const indexed = snapshot.market.pool(hexOf(pool.id))!
    if (indexed.kind !== "v2") throw new Error("expected the v2 pair")
    const capped = tokenAddress(manifest, "CAPPED").toLowerCase()
    const [reserveUsdc, reserveToken] = indexed.token0 === capped
      ? [indexed.reserve1, indexed.reserve0]
      : [indexed.reserve0, indexed.reserve1]
    // The largest input whose output does not exceed maxTxAmount.
    const trueCap = getAmountIn(maxTx + 1n, reserveUsdc, reserveToken, BigInt(indexed.feePips))! - 1n
    expect(verdict.verdict).toBe("size_limited")
    const reported = BigInt(Math.round(Number(verdict.maxBuyUsdc) * 1e6))
    expect(reported).toBeLessThanOrEqual(trueCap)
    expect(Number(trueCap - reported) / Number(trueCap)).toBeLessThan(0.01)
  })

  it("a buy above the cap still finds the cap and the sell-back at it", async () => {
    const verdict = await check("CAPPED", 20_000n)
    expect(verdict.verdict).toBe("size_limited")
    expect(verdict.canSell).toBe(true)
  })

  it("the thin token is illiquid", async () => {
    const verdict = await check("THIN", 10n)
    expect(verdict.verdict).toBe("illiquid")
    expect(verdict.buyImpactBps!).toBeGreaterThan(0)
  })

  it("a plain token sells back: ok, no taxes, loss of about two pool fees", async () => {
    const verdict = await check("DEGEN", 100n)
    expect(verdict.verdict).toBe("ok")
    expect(verdict.canSell).toBe(true)
    expect(verdict.buyTaxBps).toBe(0)
    expect(verdict.sellTaxBps).toBe(0)
    expect(verdict.roundTripLossBps!).toBeGreaterThan(0)
    expect(verdict.roundTripLossBps!).toBeLessThan(200)
  })

  it("a round trip on the v2.5 fork's pair is priced at that pair's own fee: ok, no taxes", async () => {
    // WBTC/USDC on `pairfee-v2` charges the 0.15 % fixed at its creation; a fee below it in the
    // service's math would show up here as a buy tax (the wallet getting less than the pools' output).
    const WBTC = tokenAddress(manifest, "WBTC")
    const path = bestPath(manifest, snapshot.market, WBTC, 500n * E6, (venue) => venue === "pairfee-v2")
    expect(path.hops.map((hop) => hop.venue)).toEqual(["pairfee-v2"])
    const verdict = await runtime.runPromise(Effect.flatMap(SafetyCheck, (safety) =>
      safety.check({
        token: hexOf(WBTC),
        path,
        amountInUsdc: 500n * E6,
        block: BigInt(snapshot.state.block),
        pools: snapshot.market.pool
      })))
    expect(verdict).toMatchObject({ verdict: "ok", canSell: true, buyTaxBps: 0, sellTaxBps: 0 })
    // Two fees of 15 bps (29.98 bps together), the buy's price impact given back by the sell.
    expect(verdict.roundTripLossBps!).toBeGreaterThanOrEqual(29)
    expect(verdict.roundTripLossBps!).toBeLessThan(35)
  })

  it("USDC and operator-pinned assets are pinned", async () => {
    const weth = await check("WETH", 100n)
    expect(weth.verdict).toBe("pinned")
    expect(weth.canSell).toBe(true)
    const usdc = await checkToken(runtime, snapshot, manifest, tokenAddress(manifest, "USDC"), 100n * E6, WETH)
    expect(usdc.verdict).toBe("pinned")
  })

  it("a verdict is measured once per token, route, size and block", async () => {
    const first = await check("TAX", 250n)
    const again = await check("TAX", 250n)
    expect(again).toBe(first)
  })
})

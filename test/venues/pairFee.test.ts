/**
 * The devnet's v2.5 venue (`pairfee-v2`), whose pairs each keep the fee fixed at their creation, on a
 * private devnet (these trades move prices): a quote restricted to it equals the pair's own
 * `getAmountOut` / `getAmountIn` at the fee the pair itself reports, to the base unit, exactIn and
 * exactOut, on two pairs with different fees; and a trade on it delivers exactly what was quoted, with
 * receipt `pass`.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, getAddress, parseAbi } from "viem"
import { clientsFor, poolByLabel, tokenAddress } from "../support/devnet.js"
import { answerOf, harnessPerFile, takerOn } from "../swap/harness.js"

const pairAbi = parseAbi([
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function token0() view returns (address)",
  "function swapFee() view returns (uint32)"
])

const { harness, ops, trade } = harnessPerFile()

/** The pair's reserves (in, out) at `block` (else the latest) and its own fee in basis points (`swapFee()`
 * out of 10000). */
const pairAt = async (pair: Address, tokenIn: Address, block?: number) => {
  const client = clientsFor(harness.devnet.manifest).public
  const blockNumber = block === undefined ? undefined : BigInt(block)
  const [r0, r1] = await client.readContract({ address: pair, abi: pairAbi, functionName: "getReserves", blockNumber })
  const token0 = await client.readContract({ address: pair, abi: pairAbi, functionName: "token0", blockNumber })
  const fee = BigInt(await client.readContract({ address: pair, abi: pairAbi, functionName: "swapFee", blockNumber }))
  const [reserveIn, reserveOut] = getAddress(token0) === getAddress(tokenIn) ? [r0, r1] : [r1, r0]
  return { reserveIn, reserveOut, fee }
}

const onlyPairFee = { venues: ["pairfee-v2"], maxHops: 1, maxSplits: 1 }

describe("the v2.5 venue: a fee per pair", () => {
  const pairs = [["WETH", "2500", "0.4"], ["WBTC", "2500", "0.02"]] as const

  it("its pairs charge different fees", async () => {
    const fees = await Promise.all(pairs.map(([label]) => {
      const pool = poolByLabel(harness.devnet.manifest, `pairfee-v2:${label}/USDC`)
      return pairAt(pool.address as Address, tokenAddress(harness.devnet.manifest, "USDC")).then((p) => p.fee)
    }))
    expect(new Set(fees).size).toBe(pairs.length)
  })

  for (const [label, usdcIn, wanted] of pairs) {
    it(`${label}/USDC: exactIn and exactOut quotes are the pair's own math at its own fee`, async () => {
      const { manifest } = harness.devnet
      const USDC = tokenAddress(manifest, "USDC")
      const buy = tokenAddress(manifest, label)
      const pair = poolByLabel(manifest, `pairfee-v2:${label}/USDC`).address as Address

      const exactIn = answerOf(await ops.quote({ sell: USDC, buy, amount: usdcIn, ...onlyPairFee }))
      const hop = exactIn.best.legs[0]!.hops[0]!
      expect([hop.venue, hop.poolId]).toEqual(["pairfee-v2", getAddress(pair)])
      const atIn = await pairAt(pair, USDC, exactIn.block)
      expect(hop.feeBps).toBe(Number(atIn.fee))
      const amountIn = BigInt(exactIn.best.amountInRaw)
      const withFee = amountIn * (10_000n - atIn.fee)
      const out = (withFee * atIn.reserveOut) / (atIn.reserveIn * 10_000n + withFee)
      expect(exactIn.best.amountOutQuotedRaw).toBe(out.toString())

      const exactOut = answerOf(await ops.quote({ sell: USDC, buy, amount: wanted, side: "exactOut", ...onlyPairFee }))
      const atOut = await pairAt(pair, USDC, exactOut.block)
      const outRaw = BigInt(exactOut.best.minAmountOutRaw)
      const input = (atOut.reserveIn * outRaw * 10_000n) / ((atOut.reserveOut - outRaw) * (10_000n - atOut.fee)) + 1n
      expect(exactOut.best.amountInRaw).toBe(input.toString())
    })

    it(`${label}/USDC: a trade on it delivers exactly the quote, receipt pass`, async () => {
      const { manifest } = harness.devnet
      const taker = await takerOn(harness)
      const buy = tokenAddress(manifest, label)
      const USDC = tokenAddress(manifest, "USDC")
      const bought = await trade(taker, { sell: USDC, buy, amount: usdcIn, ...onlyPairFee })
      expect(bought.quoted.best.legs[0]!.hops[0]!.venue).toBe("pairfee-v2")
      // `trade` checked the receipt: `pass`, delivered to the base unit.
      expect(bought.delivered).toBe(BigInt(bought.quoted.best.amountOutQuotedRaw))
      const exact = await trade(taker, { sell: USDC, buy, amount: wanted, side: "exactOut", ...onlyPairFee })
      expect(exact.delivered).toBe(BigInt(exact.quoted.best.minAmountOutRaw))
    })
  }
})

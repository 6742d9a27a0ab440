/**
 * The corpus through the service, as an agent trades: every honest design is bought and sold back with
 * quote → swap (→ permit) → send with exactly the returned `gas` → receipt `pass`, judged `ok` or `taxed`
 * with taxes within 5 bp of what Uniswap's Router02 measured by hand (./corpus.ts; behind a v4 hook,
 * which the service cannot price exactly, the round trip's loss beyond the pools' fees within 5 bp of what
 * PoolSwapTest measured); the traps are `cannot_sell` with `next: stop`.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, formatUnits } from "viem"
import { answerOf, harnessPerFile, takerOn } from "../swap/harness.js"
import { type CorpusEntry, honest, traps } from "./corpus.js"
import { type Corpus, deployCorpus } from "./deploy.js"

const { harness, ops, trade } = harnessPerFile()
let deployment: Corpus

beforeAll(async () => {
  deployment = await deployCorpus(harness.devnet.manifest)
  await ops.indexed(deployment.block)
}, 120_000)

const TAX_TOLERANCE_BPS = 5
const tokenOf = (entry: CorpusEntry): Address => deployment.listed[entry.name].token

describe.each(honest)("$name ($design)", (entry) => {
  it("trades both ways with receipt pass, judged with the taxes Uniswap measured", async () => {
    const taker = await takerOn(harness)
    const token = tokenOf(entry)
    const buy = { sell: deployment.usdc, buy: token, amount: "100" }
    const { safety } = answerOf(await ops.quote({ ...buy, taker: taker.address }))
    expect(safety?.verdict, safety?.reason).toBeOneOf(["ok", "taxed"])
    if (entry.venue === "v2") {
      expect(Math.abs((safety?.buyTaxBps ?? Number.NaN) - entry.buyTaxBps)).toBeLessThanOrEqual(TAX_TOLERANCE_BPS)
      expect(Math.abs((safety?.sellTaxBps ?? Number.NaN) - entry.sellTaxBps)).toBeLessThanOrEqual(TAX_TOLERANCE_BPS)
    } else {
      // A hook's take cannot be told from the pool's price: no split, the round trip's loss beyond fees instead.
      expect([safety?.buyTaxBps, safety?.sellTaxBps]).toEqual([null, null])
      const beyondFees = Number(/lost (\d+) bps beyond the pools' own fees/.exec(safety?.reason ?? "")?.[1])
      expect(Math.abs(beyondFees - entry.buyTaxBps - entry.sellTaxBps)).toBeLessThanOrEqual(TAX_TOLERANCE_BPS)
    }
    const bought = await trade(taker, buy)
    expect(bought.delivered).toBeGreaterThan(0n)

    const held = await taker.balanceOf(token)
    const sold = await trade(taker, { sell: token, buy: deployment.usdc, amount: formatUnits(held, 18) })
    expect(sold.quoted.safety?.verdict, sold.quoted.safety?.reason).toBeOneOf(["ok", "taxed"])
    expect(sold.delivered).toBeGreaterThan(0n)
    expect(await taker.balanceOf(token)).toBe(0n)
  })
})

describe.each(traps)("$name ($design)", (entry) => {
  it("is cannot_sell with next stop", async () => {
    // Funded as the honest designs' takers are, so that nothing but the verdict can stop the trade.
    const taker = await takerOn(harness)
    const quoted = answerOf(
      await ops.quote({ sell: deployment.usdc, buy: tokenOf(entry), amount: "100", taker: taker.address })
    )
    expect(quoted.safety?.verdict, quoted.safety?.reason).toBe("cannot_sell")
    expect(quoted.next).toBe("stop")
  })
})

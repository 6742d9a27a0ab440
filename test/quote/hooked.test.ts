/**
 * Pools whose swap indexed state cannot price (a v4 hook that takes a cut of each swap, a hook that sets
 * the fee per swap) are priced by simulating the swap through the venue's quoter at the quote's block:
 * the route says so, the quote warns, and the swap built from it delivers exactly what was quoted when
 * nothing else trades in between.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, getAddress } from "viem"
import { tokenAddress } from "../support/devnet.js"
import { answerOf, harnessPerFile, takerOn } from "../swap/harness.js"

const { harness, ops } = harnessPerFile()
let USDC: Address

beforeAll(async () => {
  USDC = tokenAddress(harness.devnet.manifest, "USDC")
})

const buyThrough = async (label: string, request: Record<string, unknown>) => {
  const token = tokenAddress(harness.devnet.manifest, label)
  const taker = await takerOn(harness)
  const quoted = answerOf(await ops.quote({ sell: USDC, buy: token, taker: taker.address, ...request }))
  const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
  const before = await taker.balanceOf(token)
  const receipts = await taker.sendAll(built.transactions)
  expect(receipts.every((receipt) => receipt.status === "success")).toBe(true)
  return { quoted, built, delivered: (await taker.balanceOf(token)) - before }
}

describe("hooked v4 pools", () => {
  it("a creator-fee hook pool (returns deltas) is priced by simulation and delivers exactly the quote", async () => {
    const { built, delivered, quoted } = await buyThrough("BLOOM", { amount: "250", maxSplits: 1 })
    expect(quoted.next).toBe("swap")
    expect(quoted.warnings).toContain("priced_by_simulation")
    const route = quoted.routes.find((candidate) => candidate.routeId === quoted.best.legs[0]!.routeId)
    expect(route?.pricedBy).toBe("simulation")
    expect(quoted.best.legs[0]!.hops[0]!.venue).toBe("uniswap-v4")
    expect(built.amountOutSimulated).toBe(quoted.best.amountOutQuotedRaw)
    expect(delivered.toString()).toBe(quoted.best.amountOutQuotedRaw)
  })

  it("exactOut through the hook: at least the asked amount arrives, exactly as simulated", async () => {
    const { built, delivered, quoted } = await buyThrough("BLOOM", { amount: "40", side: "exactOut", maxSplits: 1 })
    expect(quoted.warnings).toContain("priced_by_simulation")
    expect(BigInt(quoted.best.amountOutQuotedRaw)).toBeGreaterThanOrEqual(40n * 10n ** 18n)
    expect(delivered).toBe(BigInt(built.amountOutSimulated))
    expect(delivered).toBeGreaterThanOrEqual(40n * 10n ** 18n)
  })

  it("a dynamic-fee hook pool is priced by simulation at the quote's block", async () => {
    const { built, delivered, quoted } = await buyThrough("ZAP", { amount: "120", maxSplits: 1 })
    const route = quoted.routes.find((candidate) => candidate.routeId === quoted.best.legs[0]!.routeId)
    expect(route?.pricedBy).toBe("simulation")
    expect(getAddress(quoted.buy.address)).toBe(getAddress(tokenAddress(harness.devnet.manifest, "ZAP")))
    expect(BigInt(built.amountOutSimulated)).toBeGreaterThanOrEqual(BigInt(quoted.best.minAmountOutRaw))
    // The hook's fee depends on the block's time: the simulation assumes the next second, and a devnet
    // block may share its parent's second, so what arrives can differ by a hair, never below the minimum.
    expect(delivered).toBeGreaterThanOrEqual(BigInt(built.minAmountOut))
    const drift = delivered > BigInt(built.amountOutSimulated)
      ? delivered - BigInt(built.amountOutSimulated)
      : BigInt(built.amountOutSimulated) - delivered
    expect(drift * 10_000n).toBeLessThanOrEqual(BigInt(built.amountOutSimulated))
  })
})

/**
 * Exact output through the launchpad curve (audit L-1): the curve has no exact-output trade, so the step
 * pays the least input that reaches the amount at the curve's reserves when it runs. A buy landing ahead
 * of the taker's is absorbed up to the step's limit (the quote's slippage) instead of reverting; beyond
 * it, the step's limit refuses. As a chain's head, the link below makes exactly the input the curve asks.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, maxUint256 } from "viem"
import { StepFlag } from "../../src/execution/RouterPlan.js"
import { buyExactIn, buyExactOut, sellExactIn, sellExactOut } from "../../src/math/LaunchpadCurve.js"
import { launchpadAbi } from "../support/abis.js"
import { contractAddress, poolByLabel } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"
import { ether, routerDevnet, usdc } from "./devnet.js"
import { v3Swap } from "./poolState.js"
import { curveStep, makePlan, poolStep, revertOf, sendPlan } from "./support.js"

const env = routerDevnet()

const curveOf = async (wallet: Wallet, token: Address) => {
  const [usdcReserve, tokenReserve] = await wallet.public.readContract({
    address: contractAddress(env.manifest, "launchpad"),
    abi: launchpadAbi,
    functionName: "curveReserves",
    args: [token]
  })
  // Only the reserves price a trade; the graduation figures play no part here.
  return { usdcReserve, tokenReserve, virtualUsdc: 0n, graduationUsdc: 0n }
}

/** A buy of exactly `wanted` tokens on the curve, at most `limit` USDC in the step, `maxIn` in all. */
const buyExactly = (taker: Wallet, token: Address, wanted: bigint, limit: bigint, maxIn = limit) =>
  makePlan({
    sellToken: env.usdc,
    buyToken: token,
    recipient: taker.address,
    amountIn: maxIn,
    exactOut: true,
    minAmountOut: wanted,
    steps: [curveStep(env.manifest, env.usdc, token, wanted, { flags: StepFlag.exactOut, limit })]
  })

describe("exact output through the launchpad curve", () => {
  it("a buy ahead of the taker's, inside the quote's slippage: the taker still gets the amount, paying the new least input", async () => {
    const [taker, ahead] = [env.trader(1), env.trader(2)]
    const token = env.token("LAUNCH_CURVE")
    for (const wallet of [taker, ahead]) await wallet.approve(env.usdc, env.router, maxUint256)
    const wanted = ether("1000000")
    const quoted = buyExactOut(await curveOf(taker, token), wanted)!
    const limit = (quoted * 101n) / 100n
    // Someone else's buy lands first and moves the curve's price up.
    await sendPlan(
      ahead,
      env.router,
      makePlan({
        sellToken: env.usdc,
        buyToken: token,
        recipient: ahead.address,
        amountIn: usdc("5"),
        steps: [curveStep(env.manifest, env.usdc, token, usdc("5"))]
      })
    )
    const curve = await curveOf(taker, token)
    const needed = buyExactOut(curve, wanted)!
    expect(needed).toBeGreaterThan(quoted)
    expect(needed).toBeLessThanOrEqual(limit)
    // Beyond the step's limit (the quote without slippage), it refuses.
    expect(await revertOf(taker, env.router, buyExactly(taker, token, wanted, quoted, limit))).toBe(
      "StepInputTooHigh"
    )

    const [paid, got] = await taker.changes([[env.usdc, taker.address], [token, taker.address]], async () => {
      const { event } = await sendPlan(taker, env.router, buyExactly(taker, token, wanted, limit))
      expect(event.amountIn).toBe(needed)
    })
    expect(paid).toBe(-needed)
    // At least the amount: what the least input buys, as the launchpad rounds.
    expect(got).toBe(buyExactIn(curve, needed))
    expect(got).toBeGreaterThanOrEqual(wanted)
    expect(await taker.balanceOf(env.usdc, env.router)).toBe(0n)
  })

  it("a sell for exactly an amount of USDC pays the least token input", async () => {
    const taker = env.trader(1)
    const token = env.token("LAUNCH_CURVE")
    await taker.approve(token, env.router, maxUint256)
    const wanted = usdc("2")
    const curve = await curveOf(taker, token)
    const needed = sellExactOut(curve, wanted)!
    const plan = makePlan({
      sellToken: token,
      buyToken: env.usdc,
      recipient: taker.address,
      amountIn: needed * 2n,
      exactOut: true,
      minAmountOut: wanted,
      steps: [curveStep(env.manifest, token, env.usdc, wanted, { flags: StepFlag.exactOut, limit: needed * 2n })]
    })
    expect(await revertOf(taker, env.router, plan)).toBe("succeeded")
    const [paid, got] = await taker.changes(
      [[token, taker.address], [env.usdc, taker.address]],
      () => sendPlan(taker, env.router, plan)
    )
    expect(paid).toBe(-needed)
    expect(got).toBe(sellExactIn(curve, needed))
    expect(got).toBeGreaterThanOrEqual(wanted)
  })

  it("a chain WETH -> USDC (v3) -> curve: the v3 link makes exactly the USDC the curve asks", async () => {
    const taker = env.trader(3)
    const token = env.token("LAUNCH_CURVE")
    const WETH = env.token("WETH")
    await taker.approve(WETH, env.router, maxUint256)
    const wanted = ether("500000")
    const curve = await curveOf(taker, token)
    const usdcNeeded = buyExactOut(curve, wanted)!
    const label = "v3:WETH/USDC:500"
    const pool = poolByLabel(env.manifest, label)
    const zeroForOne = pool.token0.toLowerCase() === WETH.toLowerCase()
    const wethNeeded = (await v3Swap(taker, pool.address as Address, zeroForOne, -usdcNeeded)).amountIn
    const plan = makePlan({
      sellToken: WETH,
      buyToken: token,
      recipient: taker.address,
      amountIn: wethNeeded * 2n,
      exactOut: true,
      minAmountOut: wanted,
      steps: [
        curveStep(env.manifest, env.usdc, token, wanted, {
          flags: StepFlag.exactOut | StepFlag.fromRouter,
          limit: usdcNeeded
        }),
        poolStep(env.manifest, label, WETH, 0n, { flags: StepFlag.exactOut | StepFlag.toRouter, limit: wethNeeded })
      ]
    })
    const [paid, got] = await taker.changes(
      [[WETH, taker.address], [token, taker.address]],
      () => sendPlan(taker, env.router, plan)
    )
    expect(paid).toBe(-wethNeeded)
    expect(got).toBe(buyExactIn(curve, usdcNeeded))
    for (const asset of [env.usdc, WETH, token]) expect(await taker.balanceOf(asset, env.router)).toBe(0n)
  })

  it("a chain curve -> USDC -> WETH (v3): the curve link sells into the router, the pool is paid exactly from it", async () => {
    const taker = env.trader(4)
    const token = env.token("LAUNCH_CURVE")
    const WETH = env.token("WETH")
    await taker.approve(env.usdc, env.router, maxUint256)
    await sendPlan(
      taker,
      env.router,
      makePlan({
        sellToken: env.usdc,
        buyToken: token,
        recipient: taker.address,
        amountIn: usdc("20"),
        steps: [curveStep(env.manifest, env.usdc, token, usdc("20"))]
      })
    )
    await taker.approve(token, env.router, maxUint256)
    const wanted = ether("0.0005")
    const label = "v3:WETH/USDC:500"
    const pool = poolByLabel(env.manifest, label)
    const zeroForOne = pool.token0.toLowerCase() === env.usdc.toLowerCase()
    const usdcNeeded = (await v3Swap(taker, pool.address as Address, zeroForOne, -wanted)).amountIn
    const curve = await curveOf(taker, token)
    const tokenNeeded = sellExactOut(curve, usdcNeeded)!
    // The curve's least input may sell for a little more than asked (under one token unit's worth, so
    // usually nothing in USDC): any excess is the taker's.
    const excess = sellExactIn(curve, tokenNeeded) - usdcNeeded
    const plan = makePlan({
      sellToken: token,
      buyToken: WETH,
      recipient: taker.address,
      amountIn: tokenNeeded * 2n,
      exactOut: true,
      minAmountOut: wanted,
      steps: [
        poolStep(env.manifest, label, env.usdc, wanted, {
          flags: StepFlag.exactOut | StepFlag.fromRouter,
          limit: usdcNeeded
        }),
        curveStep(env.manifest, token, env.usdc, 0n, {
          flags: StepFlag.exactOut | StepFlag.toRouter,
          limit: tokenNeeded * 2n
        })
      ]
    })
    const [sold, got, usdcBack] = await taker.changes(
      [[token, taker.address], [WETH, taker.address], [env.usdc, taker.address]],
      async () => expect((await sendPlan(taker, env.router, plan)).event.amountIn).toBe(tokenNeeded)
    )
    expect([sold, got, usdcBack]).toEqual([-tokenNeeded, wanted, excess])
    for (const asset of [env.usdc, WETH, token]) expect(await taker.balanceOf(asset, env.router)).toBe(0n)
  })
})

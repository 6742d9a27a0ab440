/**
 * Tokens that reach the router outside a plan (issue 19, items 1 and 5): they belong to no plan, so they
 * change no plan's outcome. One base unit of USDC does not block native-funded plans (the deposit alone
 * is the plan's); a plan with no input of its own cannot take stray tokens; a plan holding the same
 * token spends its share of its own holding and is refunded only what it left, never the strays.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, parseUnits } from "viem"
import { Funding, SHARE_ALL, StepFlag } from "../../src/execution/RouterPlan.js"
import { poolsOf, routerDevnet } from "./devnet.js"
import { v2ExactIn, v3Swap } from "./poolState.js"
import { makePlan, poolStep, revertOf, sendPlan, wethOnV2 } from "./support.js"

const env = routerDevnet()

const { pool } = poolsOf(env)

describe("stray tokens in the router change no plan", () => {
  it("one base unit of USDC in the router: a native-funded exact-in plan spends exactly its deposit", async () => {
    const trader = env.trader(1)
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    await env.trader(6).transfer(USDC, env.router, 1n)
    const amountIn = parseUnits("1500", 6)
    const { plan, expected } = await wethOnV2(env, trader, amountIn, { funding: Funding.native })
    const [usdcChange, wethChange] = await trader.changes(
      [[USDC, trader.address], [WETH, trader.address]],
      async () => {
        const { event } = await sendPlan(trader, env.router, plan)
        expect(event.amountIn).toBe(amountIn)
        expect(event.amountOut).toBe(expected)
      }
    )
    expect(wethChange).toBe(expected)
    // Paid in native value: no ERC-20 USDC refunded to the taker, and the stray unit is still there.
    expect(usdcChange).toBe(0n)
    expect(await trader.balanceOf(USDC, env.router)).toBe(1n)
  })

  it("a plan with no input of its own takes nothing: a share of nothing, or an exact output with no link", async () => {
    const thief = env.trader(7)
    const [WETH, USDC] = [env.token("WETH"), env.usdc]
    const stray = parseUnits("0.25", 18)
    await env.trader(6).transfer(WETH, env.router, stray)
    const share = makePlan({
      sellToken: WETH,
      buyToken: USDC,
      recipient: thief.address,
      amountIn: 0n,
      exactOut: true,
      steps: [poolStep(env.manifest, "v2:WETH/USDC", WETH, SHARE_ALL, { flags: StepFlag.fromRouter })]
    })
    expect(await revertOf(thief, env.router, share)).toBe("InvalidStep")
    const exactOut = makePlan({
      ...share,
      minAmountOut: 1n,
      steps: [poolStep(env.manifest, "v2:WETH/USDC", WETH, 1_000_000n, {
        flags: StepFlag.exactOut | StepFlag.fromRouter,
        limit: stray
      })]
    })
    expect(await revertOf(thief, env.router, exactOut)).toBe("InvalidStep")
    expect(await thief.balanceOf(WETH, env.router)).toBe(stray)
  })

  it("a plan holding the same token spends a share of its own output and is refunded only the rest of it", async () => {
    const trader = env.trader(2)
    const [USDC, WETH, WBTC] = [env.usdc, env.token("WETH"), env.token("WBTC")]
    const strayBefore = await trader.balanceOf(WETH, env.router)
    await env.trader(6).transfer(WETH, env.router, parseUnits("0.1", 18))
    const stray = strayBefore + parseUnits("0.1", 18)
    const amountIn = parseUnits("2000", 6)
    await trader.approve(USDC, env.router, amountIn)
    const middle = await v2ExactIn(trader, pool("v2:WETH/USDC").address as Address, USDC, amountIn)
    const half = middle / 2n
    const label = "v3:WETH/WBTC:500"
    const zeroForOne = pool(label).token0.toLowerCase() === WETH.toLowerCase()
    const expected = await v3Swap(trader, pool(label).address as Address, zeroForOne, half)
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WBTC,
      recipient: trader.address,
      amountIn,
      steps: [
        poolStep(env.manifest, "v2:WETH/USDC", USDC, amountIn, { flags: StepFlag.toRouter }),
        poolStep(env.manifest, label, WETH, SHARE_ALL / 2n, { flags: StepFlag.fromRouter })
      ]
    })
    const [wethChange, wbtcChange] = await trader.changes(
      [[WETH, trader.address], [WBTC, trader.address]],
      async () => expect((await sendPlan(trader, env.router, plan)).event.amountOut).toBe(expected.amountOut)
    )
    expect(wbtcChange).toBe(expected.amountOut)
    expect(wethChange).toBe(middle - half)
    expect(await trader.balanceOf(WETH, env.router)).toBe(stray)
  })
})

/**
 * Tokens that reach the router outside a plan (issue 19, items 1 and 5): they belong to no plan, so they
 * change no plan's outcome. One base unit of USDC does not block native-funded plans (the deposit alone
 * is the plan's); a plan with no input of its own cannot take stray tokens; a plan holding the same
 * token spends its share of its own holding and is refunded only what it left, never the strays.
 * Sell token the sweep hands back is not counted as spent (audit I-2), whatever the funding.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, parseAbi, parseUnits } from "viem"
import { Funding, SHARE_ALL, StepFlag } from "../../src/execution/RouterPlan.js"
import { contractAddress } from "../support/devnet.js"
import { poolsOf, routerDevnet } from "./devnet.js"
import { v2ExactIn, v3Swap } from "./poolState.js"
import { makePlan, poolStep, revertOf, sendPlan, wethOnV2 } from "./support.js"

const env = routerDevnet()

const { pool } = poolsOf(env)
const permit2ApproveAbi = parseAbi([
  "function approve(address token, address spender, uint160 amount, uint48 expiration)"
])

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

describe("what the sweep hands back is not spent (audit I-2)", () => {
  /** USDC -> WETH to the recipient on v2, and USDC -> WETH (v3) -> USDC (v4) back into the router. */
  const roundTrip = (taker: Address, funding: (typeof Funding)[keyof typeof Funding], exactOut: boolean) => {
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const [direct, detour] = [parseUnits("600", 6), parseUnits("400", 6)]
    return makePlan({
      sellToken: USDC,
      buyToken: WETH,
      recipient: taker,
      amountIn: direct + detour,
      exactOut,
      funding,
      steps: [
        poolStep(env.manifest, "v2:WETH/USDC", USDC, direct),
        poolStep(env.manifest, "v3:WETH/USDC:500", USDC, detour, { flags: StepFlag.toRouter }),
        poolStep(env.manifest, "v4:WETH/USDC:500", WETH, SHARE_ALL, { flags: StepFlag.fromRouter | StepFlag.toRouter })
      ]
    })
  }

  it.each([["approval", Funding.approval], ["Permit2", Funding.permit2]] as const)(
    "%s: PlanExecuted.amountIn is the taker's USDC less what came back",
    async (_, funding) => {
      const trader = env.trader(3)
      const permit2 = contractAddress(env.manifest, "permit2")
      await trader.approve(env.usdc, env.router)
      await trader.approve(env.usdc, permit2)
      await trader.write(permit2, permit2ApproveAbi, "approve", [env.usdc, env.router, 2n ** 160n - 1n, 2 ** 47])
      const plan = roundTrip(trader.address, funding, true)
      const held = await trader.balanceOf(env.usdc, env.router)
      let spent = 0n
      const [usdcChange] = await trader.changes([[env.usdc, trader.address]], async () => {
        spent = (await sendPlan(trader, env.router, plan)).event.amountIn
      })
      // Some of the 400 USDC sent round came back: spent is below what was taken, and is what the taker lost.
      expect(spent).toBeLessThan(plan.amountIn)
      expect(spent).toBeGreaterThan(parseUnits("600", 6))
      expect(usdcChange).toBe(-spent)
      expect(await trader.balanceOf(env.usdc, env.router)).toBe(held)
    }
  )

  it("exact-in: the taker spends exactly amountIn or nothing, so a plan handing sell token back reverts", async () => {
    const trader = env.trader(3)
    expect(await revertOf(trader, env.router, roundTrip(trader.address, Funding.approval, false))).toBe("InputNotSpent")
    expect(await revertOf(trader, env.router, roundTrip(trader.address, Funding.native, false))).toBe("InputNotSpent")
  })
})

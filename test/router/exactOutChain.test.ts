/**
 * Multi-hop exact output (issue 19, item 2): the path runs backwards as a chain, the last hop first, each
 * hop asking the one before it for exactly its input, so every hop keeps the slippage the quote promised.
 * A move on a later pool, well inside the slippage, still fills exactly the amount asked; a hop whose
 * input rises past its own limit reverts with that hop's index; a chain that does not end with a step
 * the taker pays is refused. The v3 + v2, v3 + v4 and v4-headed chains cover each venue's nesting.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, type Hex, parseUnits, type TransactionReceipt } from "viem"
import {
  encodePlan,
  Funding,
  planHashOf,
  type RouterPlan,
  type RouterStep,
  StepFlag
} from "../../src/execution/RouterPlan.js"
import { swap } from "../../src/math/ConcentratedSwap.js"
import { getAmountIn } from "../../src/math/ConstantProduct.js"
import { v4SwapFeePips } from "../../src/math/V4Fees.js"
import { contractAddress } from "../support/devnet.js"
import { poolsOf, routerDevnet } from "./devnet.js"
import { v2Reserves, v3Swap, v4State } from "./poolState.js"
import { makePlan, poolStep, revertOf, sendPlan } from "./support.js"

const env = routerDevnet()

const { pool, zeroForOne } = poolsOf(env)
/** One per cent more, rounded up: the limit a 1 % slippage puts on a step's input. */
const plusOnePercent = (amount: bigint) => (amount * 101n + 99n) / 100n
const { exactOut, fromRouter, toRouter } = StepFlag

/** The least input of an exact output on a pool, by the pool's own math at the current state. */
const inputFor = async (label: string, tokenIn: Address, out: bigint): Promise<bigint> => {
  const trader = env.trader(0)
  const { venue, address, id, tickSpacing } = pool(label)
  if (venue === "v2") {
    const { reserveIn, reserveOut } = await v2Reserves(trader, address as Address, tokenIn)
    return getAmountIn(out, reserveIn, reserveOut)!
  }
  if (venue === "v3") return (await v3Swap(trader, address as Address, zeroForOne(label, tokenIn), -out)).amountIn
  const stateView = contractAddress(env.manifest, "v4StateView")
  const { state, protocolFee, lpFee } = await v4State(trader, stateView, id as Hex, tickSpacing!)
  const direction = zeroForOne(label, tokenIn)
  return swap(state, {
    zeroForOne: direction,
    amountSpecified: -out,
    feePips: v4SwapFeePips(lpFee, protocolFee, direction)
  })
    .amountIn
}

/**
 * A two-hop exact-output chain `sell -(first)-> middle -(second)-> buy` buying `wanted` for `recipient`,
 * limits 1 % over the model: its plan's terms (all but the steps), its steps and that plan.
 */
const chainOf = async (
  [first, second]: readonly [string, string],
  [sell, middleToken, buy]: readonly [Address, Address, Address],
  wanted: bigint,
  recipient: Address,
  funding: RouterPlan["funding"] = Funding.approval
) => {
  const middle = await inputFor(second, middleToken, wanted)
  const paid = await inputFor(first, sell, middle)
  const maxIn = plusOnePercent(paid)
  const steps: Array<RouterStep> = [
    poolStep(env.manifest, second, middleToken, wanted, {
      flags: exactOut | fromRouter,
      limit: plusOnePercent(middle)
    }),
    poolStep(env.manifest, first, sell, 0n, { flags: exactOut | toRouter, limit: maxIn })
  ]
  const terms = {
    sellToken: sell,
    buyToken: buy,
    recipient,
    amountIn: maxIn,
    exactOut: true,
    minAmountOut: wanted,
    funding
  }
  return { paid, maxIn, terms, steps, plan: makePlan({ ...terms, steps }) }
}

const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
const topicAddress = (topic: Hex | undefined) => `0x${topic?.slice(26) ?? ""}`.toLowerCase()

/** Transfers of `token` from or to `account` in a receipt: a chain link pays the pool above it directly. */
const transfersTouching = (receipt: TransactionReceipt, token: Address, account: Address) =>
  receipt.logs.filter((log) =>
    log.address.toLowerCase() === token.toLowerCase() && log.topics[0] === TRANSFER &&
    [log.topics[1], log.topics[2]].some((topic) => topicAddress(topic) === account.toLowerCase())
  )

describe("multi-hop exact output runs backwards, every hop within its own limit", () => {
  it("USDC -> WETH (v2) -> WBTC (v3): a move on the second pool inside the slippage still buys exactly the amount", async () => {
    const trader = env.trader(1)
    const [USDC, WETH, WBTC] = [env.usdc, env.token("WETH"), env.token("WBTC")]
    const wanted = parseUnits("0.05", 8)
    const { paid, maxIn, plan } = await chainOf(
      ["v2:WETH/USDC", "v3:WETH/WBTC:500"],
      [USDC, WETH, WBTC],
      wanted,
      trader.address
    )
    await trader.approve(USDC, env.router, maxIn)

    // Someone else buys WBTC on the second pool first: it now costs more WETH, well inside 1 %.
    const mover = env.trader(3)
    const moveIn = parseUnits("0.5", 18)
    await mover.approve(WETH, env.router, moveIn)
    await sendPlan(
      mover,
      env.router,
      makePlan({
        sellToken: WETH,
        buyToken: WBTC,
        recipient: mover.address,
        amountIn: moveIn,
        steps: [poolStep(env.manifest, "v3:WETH/WBTC:500", WETH, moveIn)]
      })
    )
    const middleNow = await inputFor("v3:WETH/WBTC:500", WETH, wanted)
    const paidNow = await inputFor("v2:WETH/USDC", USDC, middleNow)
    expect(paidNow).toBeGreaterThan(paid)
    expect(paidNow).toBeLessThanOrEqual(maxIn)

    const [usdcChange, wbtcChange] = await trader.changes(
      [[USDC, trader.address], [WBTC, trader.address]],
      async () => {
        const { event, receipt } = await sendPlan(trader, env.router, plan)
        // The v2 link's pair sends its WETH straight to the v3 head's pool: none passes through the router.
        expect(transfersTouching(receipt, WETH, env.router)).toEqual([])
        expect(event.amountOut).toBe(wanted)
        expect(event.amountIn).toBe(paidNow)
        expect(event.planHash).toBe(planHashOf(plan))
      }
    )
    expect(wbtcChange).toBe(wanted)
    expect(usdcChange).toBe(-paidNow)
    for (const token of [USDC, WETH, WBTC]) expect(await trader.balanceOf(token, env.router)).toBe(0n)
  })

  it("WBTC -> WETH (v3) -> USDC (v4), approval funding: a v4 head pays with a nested v3 hop", async () => {
    const trader = env.trader(2)
    const [WBTC, WETH, USDC] = [env.token("WBTC"), env.token("WETH"), env.usdc]
    const wanted = parseUnits("700", 6)
    const { paid, maxIn, plan } = await chainOf(
      ["v3:WETH/WBTC:500", "v4:WETH/USDC:500"],
      [WBTC, WETH, USDC],
      wanted,
      trader.address
    )
    await trader.approve(WBTC, env.router, maxIn)
    const [wbtcChange, usdcChange] = await trader.changes(
      [[WBTC, trader.address], [USDC, trader.address]],
      () => sendPlan(trader, env.router, plan)
    )
    expect(usdcChange).toBe(wanted)
    expect(wbtcChange).toBe(-paid)
  })

  it("USDC -> WETH (v4) -> WBTC (v3), native funding: a v3 head pays with a nested v4 hop and the rest is refunded", async () => {
    const trader = env.trader(4)
    const [USDC, WETH, WBTC] = [env.usdc, env.token("WETH"), env.token("WBTC")]
    const wanted = parseUnits("0.02", 8)
    const { paid, maxIn, plan } = await chainOf(
      ["v4:WETH/USDC:500", "v3:WETH/WBTC:500"],
      [USDC, WETH, WBTC],
      wanted,
      trader.address,
      Funding.native
    )
    const [usdcChange, wbtcChange] = await trader.changes(
      [[USDC, trader.address], [WBTC, trader.address]],
      async () => {
        const { event, receipt } = await sendPlan(trader, env.router, plan)
        expect(event.amountIn).toBe(paid)
        // The v4 link's PoolManager sends its WETH straight to the v3 head's pool.
        expect(transfersTouching(receipt, WETH, env.router)).toEqual([])
      }
    )
    expect(wbtcChange).toBe(wanted)
    // The deposit was maxIn in native value; what the chain did not use comes back as ERC-20 USDC.
    expect(usdcChange).toBe(maxIn - paid)
    expect(await trader.balanceOf(USDC, env.router)).toBe(0n)
  })

  it("a hop whose input rises past its own limit reverts, naming that hop", async () => {
    const trader = env.trader(5)
    const [USDC, WETH, WBTC] = [env.usdc, env.token("WETH"), env.token("WBTC")]
    const wanted = parseUnits("0.01", 8)
    const { maxIn, terms: base, steps } = await chainOf(
      ["v2:WETH/USDC", "v3:WETH/WBTC:500"],
      [USDC, WETH, WBTC],
      wanted,
      trader.address
    )
    await trader.approve(USDC, env.router, maxIn)
    const tightHead = [{ ...steps[0]!, limit: 1n }, steps[1]!]
    expect(await revertOf(trader, env.router, makePlan({ ...base, steps: tightHead }))).toBe("StepInputTooHigh")
    // No link at all, or a step after the head that is no link: refused before any pool is called.
    expect(await revertOf(trader, env.router, makePlan({ ...base, steps: [steps[0]!] }))).toBe("InvalidStep")
    const notLink = [steps[0]!, { ...steps[1]!, flags: StepFlag.fromRouter | StepFlag.toRouter }]
    expect(await revertOf(trader, env.router, makePlan({ ...base, steps: notLink }))).toBe("InvalidStep")
    // A link's amount and output are implied (what the head owes, of its input): the bytes cannot say others.
    expect(() => encodePlan(makePlan({ ...base, steps: [steps[0]!, { ...steps[1]!, amount: 1n }] })))
      .toThrow("a link's amount is what the step above owes")
    expect(() => encodePlan(makePlan({ ...base, steps: [steps[0]!, { ...steps[1]!, tokenOut: USDC }] })))
      .toThrow("a link makes the input of the step above")
  })
})

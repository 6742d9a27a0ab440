/**
 * Amount limits on the devnet: exact output (v2 and v3, approval and native funding) takes no more than
 * the pool math's input and refunds the unused native deposit; a plan short of `minAmountOut`, past its
 * deadline or over a step limit reverts with nothing moved; a fee-on-transfer sell on v2 is priced from
 * what the pair received, and a taxed buy is judged by what the recipient really got.
 *
 * One file, a little over the usual size, because the cases share one private devnet.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  type Address,
  concat,
  encodeFunctionData,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi,
  parseUnits,
  size,
  slice,
  toHex
} from "viem"
import { encodePlan, Funding, routerAbi, type RouterPlan, StepFlag } from "../../src/execution/RouterPlan.js"
import { swap } from "../../src/math/ConcentratedSwap.js"
import { getAmountIn, getAmountOut } from "../../src/math/ConstantProduct.js"
import { v4SwapFeePips } from "../../src/math/V4Fees.js"
import { contractAddress, poolByLabel } from "../support/devnet.js"
import { ether, routerDevnet, usdc } from "./devnet.js"
import { v2Reserves, v3Swap, v4State } from "./poolState.js"
import { makePlan, poolStep, revertOf, sendPlan, wethOnV2 } from "./support.js"

const env = routerDevnet()

const pairOf = (label: string) => poolByLabel(env.manifest, label).address as Address

describe("exact output", () => {
  it("v3, native funding: pays the pool math's input and refunds the rest of the deposit as USDC", async () => {
    const trader = env.trader(1)
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const label = "v3:WETH/USDC:500"
    const pool = poolByLabel(env.manifest, label)
    const wanted = ether("1.5")
    const zeroForOne = getAddress(pool.token0) === getAddress(USDC)
    const model = await v3Swap(trader, pool.address as Address, zeroForOne, -wanted)
    const maxIn = (model.amountIn * 102n) / 100n
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WETH,
      recipient: trader.address,
      amountIn: maxIn,
      exactOut: true,
      minAmountOut: wanted,
      funding: Funding.native,
      steps: [poolStep(env.manifest, label, USDC, wanted, { flags: StepFlag.exactOut, limit: maxIn })]
    })
    const [usdcChange, wethChange] = await trader.changes(
      [[USDC, trader.address], [WETH, trader.address]],
      async () => {
        const { event } = await sendPlan(trader, env.router, plan)
        expect(event.amountIn).toBe(model.amountIn)
        expect(event.amountOut).toBe(wanted)
      }
    )
    expect(wethChange).toBe(wanted)
    expect(usdcChange).toBe(maxIn - model.amountIn)
    expect(await trader.balanceOf(USDC, env.router)).toBe(0n)
  })

  it("v2, approval funding: takes getAmountIn, never the maximum", async () => {
    const trader = env.trader(2)
    const [USDC, WBTC] = [env.usdc, env.token("WBTC")]
    const wanted = parseUnits("0.02", 8)
    const { reserveIn, reserveOut } = await v2Reserves(trader, pairOf("v2:WBTC/USDC"), USDC)
    const needed = getAmountIn(wanted, reserveIn, reserveOut)!
    const maxIn = needed * 2n
    await trader.approve(USDC, env.router, maxIn)
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WBTC,
      recipient: trader.address,
      amountIn: maxIn,
      exactOut: true,
      minAmountOut: wanted,
      steps: [poolStep(env.manifest, "v2:WBTC/USDC", USDC, wanted, { flags: StepFlag.exactOut, limit: maxIn })]
    })
    const [paid, got] = await trader.changes(
      [[USDC, trader.address], [WBTC, trader.address]],
      () => sendPlan(trader, env.router, plan)
    )
    expect(paid).toBe(-needed)
    expect(got).toBe(wanted)
  })

  it("v4, funded by a Permit2 allowance the taker already granted: pays the pool math's input", async () => {
    const trader = env.trader(3)
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const permit2 = contractAddress(env.manifest, "permit2")
    await trader.approve(WETH, permit2, maxUint256)
    await trader.write(
      permit2,
      parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"]),
      "approve",
      [WETH, env.router, 2n ** 160n - 1n, 2 ** 47]
    )
    const label = "v4:WETH/USDC:500"
    const pool = poolByLabel(env.manifest, label)
    const wanted = usdc("777")
    const zeroForOne = getAddress(pool.token0) === getAddress(WETH)
    const { state, protocolFee, lpFee } = await v4State(
      trader,
      contractAddress(env.manifest, "v4StateView"),
      pool.id as Hex,
      pool.tickSpacing!
    )
    const model = swap(state, {
      zeroForOne,
      amountSpecified: -wanted,
      feePips: v4SwapFeePips(lpFee, protocolFee, zeroForOne)
    })
    const maxIn = model.amountIn + 10n ** 15n
    const plan = makePlan({
      sellToken: WETH,
      buyToken: USDC,
      recipient: trader.address,
      amountIn: maxIn,
      exactOut: true,
      minAmountOut: wanted,
      funding: Funding.permit2,
      steps: [poolStep(env.manifest, label, WETH, wanted, { flags: StepFlag.exactOut, limit: maxIn })]
    })
    const [paid, got] = await trader.changes(
      [[WETH, trader.address], [USDC, trader.address]],
      () => sendPlan(trader, env.router, plan)
    )
    expect(paid).toBe(-model.amountIn)
    expect(got).toBe(wanted)
  })

  it("refuses when the input needed exceeds the plan's maximum", async () => {
    const trader = env.trader(2)
    const [USDC, WBTC] = [env.usdc, env.token("WBTC")]
    const wanted = parseUnits("0.02", 8)
    const { reserveIn, reserveOut } = await v2Reserves(trader, pairOf("v2:WBTC/USDC"), USDC)
    const needed = getAmountIn(wanted, reserveIn, reserveOut)!
    await trader.approve(USDC, env.router, needed)
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WBTC,
      recipient: trader.address,
      amountIn: needed - 1n,
      exactOut: true,
      minAmountOut: wanted,
      steps: [poolStep(env.manifest, "v2:WBTC/USDC", USDC, wanted, { flags: StepFlag.exactOut, limit: needed })]
    })
    expect(await revertOf(trader, env.router, plan)).toBe("InputAboveMaximum")
  })
})

describe("limits that revert", () => {
  const directPlan = async (i: number, overrides: Partial<RouterPlan> = {}) => {
    const trader = env.trader(i)
    const amountIn = usdc("1000")
    await trader.approve(env.usdc, env.router, amountIn)
    return { trader, ...await wethOnV2(env, trader, amountIn, overrides) }
  }

  it("a plan whose output falls short of minAmountOut reverts on chain and moves nothing", async () => {
    const { trader, plan, expected } = await directPlan(3)
    const short = { ...plan, minAmountOut: expected + 1n }
    expect(await revertOf(trader, env.router, short)).toBe("InsufficientOutput")
    const [usdcChange, wethChange] = await trader.changes([[env.usdc, trader.address], [
      env.token("WETH"),
      trader.address
    ]], () => expect(sendPlan(trader, env.router, short)).rejects.toThrow(/reverted/))
    expect([usdcChange, wethChange]).toEqual([0n, 0n])
    // The same plan with the true minimum goes through.
    expect((await sendPlan(trader, env.router, plan)).event.amountOut).toBe(expected)
  })

  it("a step output below its own limit reverts", async () => {
    const { trader, plan, expected } = await directPlan(4)
    const step = { ...plan.steps[0]!, limit: expected + 1n }
    expect(await revertOf(trader, env.router, { ...plan, minAmountOut: 0n, steps: [step] })).toBe("StepOutputTooLow")
  })

  it("a plan past its deadline reverts", async () => {
    const { trader, plan } = await directPlan(4)
    const block = await trader.public.getBlock()
    expect(await revertOf(trader, env.router, { ...plan, deadline: block.timestamp - 1n })).toBe("DeadlineExpired")
  })

  it("a plan with no steps reverts EmptyPlan", async () => {
    const { trader, plan } = await directPlan(5)
    expect(await revertOf(trader, env.router, { ...plan, steps: [] })).toBe("EmptyPlan")
  })
})

// planHash hashes the plan's bytes as sent; it may, because a plan has one encoding and the router refuses
// every other byte string: cut short anywhere, followed by anything, with an amount that is not minimal
// or wider than a word, or with bits set beyond a field.
describe("the plan's bytes", () => {
  const execute = (bytes: Hex) => encodeFunctionData({ abi: routerAbi, functionName: "execute", args: [bytes] })
  const planOf = async (i: number) => {
    const trader = env.trader(i)
    const amountIn = usdc("1000")
    await trader.approve(env.usdc, env.router, amountIn)
    const { plan } = await wethOnV2(env, trader, amountIn)
    return { trader, plan, bytes: encodePlan(plan), stepAt: size(encodePlan({ ...plan, steps: [] })) }
  }
  const byteAt = (bytes: Hex, at: number, value: number) =>
    concat([slice(bytes, 0, at), toHex(value, { size: 1 }), slice(bytes, at + 1)])

  it("the clean bytes execute; cut short at every length, or followed by a byte, they revert MalformedPlan", async () => {
    const { trader, plan, bytes } = await planOf(5)
    expect(await revertOf(trader, env.router, plan, { data: execute(bytes) })).toBe("succeeded")
    for (let length = 0; length < size(bytes); length++) {
      const cut = length === 0 ? "0x" : slice(bytes, 0, length)
      expect([length, await revertOf(trader, env.router, plan, { data: execute(cut) })])
        .toEqual([length, "MalformedPlan"])
    }
    for (const extra of ["0x00", "0x01", "0xffff"] as const) {
      expect(await revertOf(trader, env.router, plan, { data: execute(concat([bytes, extra])) }))
        .toBe("MalformedPlan")
    }
  })

  it("an amount with a leading zero byte or longer than 32 bytes reverts MalformedPlan", async () => {
    const { trader, plan, bytes } = await planOf(5)
    // amountIn is the first field after the 99 fixed bytes: its length byte, then the value.
    const length = Number(slice(bytes, 99, 100))
    const padded = concat([slice(bytes, 0, 99), toHex(length + 1, { size: 1 }), "0x00", slice(bytes, 100)])
    expect(await revertOf(trader, env.router, plan, { data: execute(padded) })).toBe("MalformedPlan")
    const wide = concat([slice(bytes, 0, 99), "0x21", toHex(plan.amountIn, { size: 33 }), slice(bytes, 100 + length)])
    expect(await revertOf(trader, env.router, plan, { data: execute(wide) })).toBe("MalformedPlan")
  })

  it("a head byte with bits above funding and exactOut reverts InvalidPlan", async () => {
    const { trader, plan, bytes } = await planOf(5)
    for (const bit of [3, 7]) {
      expect(await revertOf(trader, env.router, plan, { data: execute(byteAt(bytes, 32, 1 << bit)) }))
        .toBe("InvalidPlan")
    }
  })

  it("a step's flags with bits above the key kind, or a key kind not its venue family's, revert InvalidStep", async () => {
    const { trader, plan, bytes, stepAt } = await planOf(5)
    // The v2 step's flags byte is 0: set the v3 and v4 key kinds and the spare bits in turn.
    for (const flags of [1 << 3, 2 << 3, 3 << 3, 1 << 5, 1 << 7]) {
      expect(await revertOf(trader, env.router, plan, { data: execute(byteAt(bytes, stepAt + 1, flags)) }))
        .toBe("InvalidStep")
    }
    // A venue index past the table.
    expect(await revertOf(trader, env.router, plan, { data: execute(byteAt(bytes, stepAt, 0xff)) }))
      .toBe("UnknownVenue")
  })
})

describe("fee-on-transfer tokens on v2", () => {
  const taxAbi = parseAbi(["function sellTaxBps() view returns (uint16)", "function buyTaxBps() view returns (uint16)"])

  it("a taxed sell is priced from what the pair received", async () => {
    const trader = env.trader(5)
    const [TAX, USDC] = [env.token("TAX"), env.usdc]
    const amountIn = ether("1000")
    const sellTax = BigInt(await trader.public.readContract({ address: TAX, abi: taxAbi, functionName: "sellTaxBps" }))
    await trader.approve(TAX, env.router, amountIn)
    const { reserveIn, reserveOut } = await v2Reserves(trader, pairOf("v2:TAX/USDC"), TAX)
    const received = amountIn - (amountIn * sellTax) / 10_000n
    const expected = getAmountOut(received, reserveIn, reserveOut)
    const plan = makePlan({
      sellToken: TAX,
      buyToken: USDC,
      recipient: trader.address,
      amountIn,
      minAmountOut: expected,
      steps: [poolStep(env.manifest, "v2:TAX/USDC", TAX, amountIn)]
    })
    expect((await sendPlan(trader, env.router, plan)).event.amountOut).toBe(expected)
  })

  it("a taxed buy is judged by the recipient's balance: the pool's output less the tax", async () => {
    const trader = env.trader(6)
    const [TAX, USDC] = [env.token("TAX"), env.usdc]
    const amountIn = usdc("500")
    const buyTax = BigInt(await trader.public.readContract({ address: TAX, abi: taxAbi, functionName: "buyTaxBps" }))
    await trader.approve(USDC, env.router, amountIn)
    const { reserveIn, reserveOut } = await v2Reserves(trader, pairOf("v2:TAX/USDC"), USDC)
    const poolOut = getAmountOut(amountIn, reserveIn, reserveOut)
    const delivered = poolOut - (poolOut * buyTax) / 10_000n
    const plan = makePlan({
      sellToken: USDC,
      buyToken: TAX,
      recipient: trader.address,
      amountIn,
      steps: [poolStep(env.manifest, "v2:TAX/USDC", USDC, amountIn)]
    })
    // The pool's own figure is not what arrives: a minimum at the pool's output must fail.
    expect(await revertOf(trader, env.router, { ...plan, minAmountOut: poolOut })).toBe("InsufficientOutput")
    expect((await sendPlan(trader, env.router, { ...plan, minAmountOut: delivered })).event.amountOut).toBe(delivered)
  })
})

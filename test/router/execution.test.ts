/**
 * The router on the devnet, driven by viem alone: every venue kind, a two-hop, a split and a graph plan
 * deliver exactly what the project's pool math says from the state read just before; approval, Permit2
 * and native-value funding work; exact output refunds what it did not use; a plan short of its minimum
 * reverts. Every trade also leaves the router holding nothing.
 *
 * One file, longer than most, because every case shares one private devnet and its pool-state readers.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, erc20Abi, type Hex, maxUint256, parseUnits } from "viem"
import { encodeExecuteWithPermit, Funding, planHashOf, SHARE_ALL, StepFlag } from "../../src/execution/RouterPlan.js"
import { launchpadAbi } from "../support/abis.js"
import { contractAddress } from "../support/devnet.js"
import { ether, poolsOf, routerDevnet, usdc } from "./devnet.js"
import { signPermit } from "./permit.js"
import { dynamicFeeAt, v2ExactIn, v3ExactIn, v4ExactIn } from "./poolState.js"
import { curveStep, makePlan, poolStep, sendPlan, wethOnV2 } from "./support.js"

const env = routerDevnet()

const { pool, zeroForOne } = poolsOf(env)
const stateView = () => contractAddress(env.manifest, "v4StateView")

/** The router must end every call holding none of the tokens it touched. */
const expectRouterEmpty = async (tokens: ReadonlyArray<Address>) => {
  const trader = env.trader(0)
  for (const token of tokens) expect(await trader.balanceOf(token, env.router), token).toBe(0n)
  expect(await trader.public.getBalance({ address: env.router })).toBe(0n)
}

describe("single-pool plans on every venue kind", () => {
  it("v2, funded by an ERC-20 approval: USDC -> WETH delivers getAmountOut", async () => {
    const trader = env.trader(1)
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const amountIn = usdc("2500")
    await trader.approve(USDC, env.router, amountIn)
    const { plan, expected } = await wethOnV2(env, trader, amountIn)
    const [paid, got] = await trader.changes(
      [[USDC, trader.address], [WETH, trader.address]],
      () =>
        sendPlan(trader, env.router, plan).then(({ event }) => {
          expect(event).toEqual({
            quoteTag: plan.quoteTag,
            taker: trader.address,
            amountIn,
            amountOut: expected,
            planHash: planHashOf(plan)
          })
        })
    )
    expect(paid).toBe(-amountIn)
    expect(got).toBe(expected)
    // The exact-amount approval is used up: nothing is left for anyone to spend.
    expect(
      await trader.public.readContract({
        address: USDC,
        abi: erc20Abi,
        functionName: "allowance",
        args: [trader.address, env.router]
      })
    ).toBe(0n)
    await expectRouterEmpty([USDC, WETH])
  })

  it("v3, funded by a signed Permit2 PermitSingle in the same transaction: WETH -> USDC", async () => {
    const trader = env.trader(2)
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const permit2 = contractAddress(env.manifest, "permit2")
    const amountIn = ether("0.75")
    await trader.approve(WETH, permit2, maxUint256)
    const label = "v3:WETH/USDC:500"
    const expected = await v3ExactIn(trader, pool(label).address as Address, zeroForOne(label, WETH), amountIn)
    const plan = makePlan({
      sellToken: WETH,
      buyToken: USDC,
      recipient: trader.address,
      amountIn,
      funding: Funding.permit2,
      minAmountOut: expected.amountOut,
      steps: [poolStep(env.manifest, label, WETH, amountIn)]
    })
    const { permit, signature } = await signPermit(
      trader,
      env.manifest,
      { token: WETH, amount: amountIn, nonce: 0 },
      env.router
    )
    const data = encodeExecuteWithPermit(plan, permit, signature)
    const [paid, got] = await trader.changes(
      [[WETH, trader.address], [USDC, trader.address]],
      () => sendPlan(trader, env.router, plan, { data })
    )
    expect(paid).toBe(-amountIn)
    expect(got).toBe(expected.amountOut)
    await expectRouterEmpty([USDC, WETH])
  })

  it("v4 plain pool, funded by native value: USDC -> WETH", async () => {
    const trader = env.trader(3)
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const label = "v4:WETH/USDC:500"
    const amountIn = usdc("1234.5")
    const { id, tickSpacing } = pool(label)
    const expected = await v4ExactIn(trader, stateView(), id as Hex, tickSpacing!, zeroForOne(label, USDC), amountIn)
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WETH,
      recipient: trader.address,
      amountIn,
      funding: Funding.native,
      steps: [poolStep(env.manifest, label, USDC, amountIn)]
    })
    const nativeBefore = await trader.public.getBalance({ address: trader.address })
    const erc20Before = await trader.balanceOf(USDC)
    const { receipt, event } = await sendPlan(trader, env.router, plan)
    const nativeAfter = await trader.public.getBalance({ address: trader.address })
    expect(nativeBefore - nativeAfter).toBe(amountIn * 10n ** 12n + receipt.gasUsed * receipt.effectiveGasPrice)
    expect(await trader.balanceOf(USDC)).toBe(erc20Before)
    expect(event.amountIn).toBe(amountIn)
    expect(event.amountOut).toBe(expected.amountOut)
    await expectRouterEmpty([USDC, WETH])
  })

  it("v4 dynamic-fee hooked pool: the hook's fee of the block applies", async () => {
    const trader = env.trader(4)
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const label = "v4:WETH/USDC:dynamic:dynamicFeeHook"
    const { id, tickSpacing, hooks } = pool(label)
    const amountIn = ether("0.4")
    await trader.approve(WETH, env.router, amountIn)
    const block = await trader.public.getBlock()
    const timestamp = block.timestamp + 7n
    const fee = await dynamicFeeAt(trader, hooks as Address, id as Hex, timestamp)
    const expected = await v4ExactIn(
      trader,
      stateView(),
      id as Hex,
      tickSpacing!,
      zeroForOne(label, WETH),
      amountIn,
      fee
    )
    await trader.test.setNextBlockTimestamp({ timestamp })
    const plan = makePlan({
      sellToken: WETH,
      buyToken: USDC,
      recipient: trader.address,
      amountIn,
      steps: [poolStep(env.manifest, label, WETH, amountIn)]
    })
    const { event } = await sendPlan(trader, env.router, plan)
    expect(event.amountOut).toBe(expected.amountOut)
  })

  it("v4 pool whose hook takes a creator fee from the output: the recipient gets the pool's output less the fee", async () => {
    const trader = env.trader(5)
    const [USDC, BLOOM] = [env.usdc, env.token("BLOOM")]
    const label = "v4:BLOOM/USDC:3000:swapFeeHook"
    const { id, tickSpacing } = pool(label)
    const amountIn = usdc("800")
    await trader.approve(USDC, env.router, amountIn)
    const expected = await v4ExactIn(trader, stateView(), id as Hex, tickSpacing!, zeroForOne(label, USDC), amountIn)
    const creatorFee = (expected.amountOut * 100n) / 10_000n
    const plan = makePlan({
      sellToken: USDC,
      buyToken: BLOOM,
      recipient: trader.address,
      amountIn,
      steps: [poolStep(env.manifest, label, USDC, amountIn)]
    })
    const { event } = await sendPlan(trader, env.router, plan)
    expect(event.amountOut).toBe(expected.amountOut - creatorFee)
    await expectRouterEmpty([USDC, BLOOM])
  })

  it("launchpad curve: a buy and a sell of a token not yet graduated, priced by the curve", async () => {
    const trader = env.trader(6)
    const USDC = env.usdc
    const token = env.token("LAUNCH_CURVE")
    const launchpad = contractAddress(env.manifest, "launchpad")
    const reserves = () =>
      trader.public.readContract({
        address: launchpad,
        abi: launchpadAbi,
        functionName: "curveReserves",
        args: [token]
      })

    const buyIn = usdc("150")
    await trader.approve(USDC, env.router, buyIn)
    const [usdcReserve, tokenReserve] = await reserves()
    const bought = (tokenReserve * buyIn) / (usdcReserve + buyIn)
    const buy = makePlan({
      sellToken: USDC,
      buyToken: token,
      recipient: trader.address,
      amountIn: buyIn,
      steps: [curveStep(env.manifest, USDC, token, buyIn)]
    })
    expect((await sendPlan(trader, env.router, buy)).event.amountOut).toBe(bought)

    const sellIn = bought / 3n
    await trader.approve(token, env.router, sellIn)
    const [usdcAfter, tokenAfter] = await reserves()
    const sold = (usdcAfter * sellIn) / (tokenAfter + sellIn)
    const sell = makePlan({
      sellToken: token,
      buyToken: USDC,
      recipient: trader.address,
      amountIn: sellIn,
      steps: [curveStep(env.manifest, token, USDC, sellIn)]
    })
    expect((await sendPlan(trader, env.router, sell)).event.amountOut).toBe(sold)
    // The exact approval the router gave the launchpad is spent; none remains.
    for (const asset of [USDC, token]) {
      expect(
        await trader.public.readContract({
          address: asset,
          abi: erc20Abi,
          functionName: "allowance",
          args: [env.router, launchpad]
        })
      ).toBe(0n)
    }
    await expectRouterEmpty([USDC, token])
  })
})

describe("multi-pool plans", () => {
  it("two-hop DEGEN -> WETH (v2) -> USDC (v3): the second hop spends all the first produced", async () => {
    const trader = env.trader(7)
    const [DEGEN, WETH, USDC] = [env.token("DEGEN"), env.token("WETH"), env.usdc]
    const amountIn = parseUnits("5000", 18)
    await trader.approve(DEGEN, env.router, amountIn)
    const middle = await v2ExactIn(trader, pool("v2:DEGEN/WETH").address as Address, DEGEN, amountIn)
    const label = "v3:WETH/USDC:3000"
    const expected = await v3ExactIn(trader, pool(label).address as Address, zeroForOne(label, WETH), middle)
    const plan = makePlan({
      sellToken: DEGEN,
      buyToken: USDC,
      recipient: trader.address,
      amountIn,
      steps: [
        poolStep(env.manifest, "v2:DEGEN/WETH", DEGEN, amountIn, { flags: StepFlag.toRouter, limit: middle }),
        poolStep(env.manifest, label, WETH, SHARE_ALL, { flags: StepFlag.fromRouter })
      ]
    })
    expect((await sendPlan(trader, env.router, plan)).event.amountOut).toBe(expected.amountOut)
    await expectRouterEmpty([DEGEN, WETH, USDC])
  })

  it("split USDC -> WETH 60 % on v2 and 40 % on v3, to another recipient", async () => {
    const trader = env.trader(1)
    const recipient = env.trader(6).address
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const amountIn = usdc("50000")
    const [left, right] = [(amountIn * 6n) / 10n, amountIn - (amountIn * 6n) / 10n]
    await trader.approve(USDC, env.router, amountIn)
    const label = "v3:WETH/USDC:500"
    const viaV2 = await v2ExactIn(trader, pool("v2:WETH/USDC").address as Address, USDC, left)
    const viaV3 = await v3ExactIn(trader, pool(label).address as Address, zeroForOne(label, USDC), right)
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WETH,
      recipient,
      amountIn,
      minAmountOut: viaV2 + viaV3.amountOut,
      steps: [
        poolStep(env.manifest, "v2:WETH/USDC", USDC, left),
        poolStep(env.manifest, label, USDC, right)
      ]
    })
    const [got, takerWeth] = await trader.changes(
      [[WETH, recipient], [WETH, trader.address]],
      () => sendPlan(trader, env.router, plan)
    )
    expect(got).toBe(viaV2 + viaV3.amountOut)
    expect(takerWeth).toBe(0n)
  })

  it("graph WBTC -> WETH, neither side USDC: direct v3, and through USDC (v2 then v4)", async () => {
    const trader = env.trader(2)
    const [WBTC, WETH, USDC] = [env.token("WBTC"), env.token("WETH"), env.usdc]
    const amountIn = parseUnits("0.1", 8)
    const [direct, viaUsdc] = [amountIn / 2n, amountIn - amountIn / 2n]
    await trader.approve(WBTC, env.router, amountIn)
    const wethWbtc = "v3:WETH/WBTC:500"
    const first = await v3ExactIn(trader, pool(wethWbtc).address as Address, zeroForOne(wethWbtc, WBTC), direct)
    const usdcMiddle = await v2ExactIn(trader, pool("v2:WBTC/USDC").address as Address, WBTC, viaUsdc)
    const v4 = "v4:WETH/USDC:500"
    const { id, tickSpacing } = pool(v4)
    const second = await v4ExactIn(trader, stateView(), id as Hex, tickSpacing!, zeroForOne(v4, USDC), usdcMiddle)
    const plan = makePlan({
      sellToken: WBTC,
      buyToken: WETH,
      recipient: trader.address,
      amountIn,
      steps: [
        poolStep(env.manifest, wethWbtc, WBTC, direct),
        poolStep(env.manifest, "v2:WBTC/USDC", WBTC, viaUsdc, { flags: StepFlag.toRouter }),
        poolStep(env.manifest, v4, USDC, SHARE_ALL, { flags: StepFlag.fromRouter })
      ]
    })
    expect((await sendPlan(trader, env.router, plan)).event.amountOut).toBe(first.amountOut + second.amountOut)
    await expectRouterEmpty([WBTC, WETH, USDC])
  })
})

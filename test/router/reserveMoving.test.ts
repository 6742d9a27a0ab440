/**
 * Tokens that move their v2 pair's reserves during the holder's own sell (./reserveMoving.ts): the v2
 * step pays the pair first and reads the reserves after, as Uniswap's fee-on-transfer functions do, so
 * the router sells them, and delivers what Router02's `swapExactTokensForTokensSupportingFeeOnTransferTokens`
 * delivers from the same state to the base unit (each pair of trades from one anvil snapshot): a plain
 * exact-in sell, a WHOLE_BALANCE sell and a two-hop sell on to WETH through the seeded v2 pair. Exact
 * output through them stays exact: the recipient gets exactly the amount asked, within the step's limit,
 * or the step reverts with a clear error.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Address, maxUint256, parseAbi, parseUnits } from "viem"
import { DevnetVenue } from "../../devnet/router.js"
import { type RouterPlan, SHARE_ALL, StepFlag, WHOLE_BALANCE } from "../../src/execution/RouterPlan.js"
import { getAmountIn, getAmountOut } from "../../src/math/ConstantProduct.js"
import { poolByLabel } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"
import { routerDevnetWith, usdc } from "./devnet.js"
import { v2Reserves } from "./poolState.js"
import { approveAll, deployReserveMoving, fromSnapshot, type MovingToken, router02Abi } from "./reserveMoving.js"
import { makePlan, poolStep, revertOf, sendPlan } from "./support.js"

const env = routerDevnetWith(deployReserveMoving)
const supplyAbi = parseAbi(["function totalSupply() view returns (uint256)"])

const v2Step = (moving: MovingToken, tokenIn: Address, amount: bigint, flags = 0, limit = 0n) => ({
  venue: DevnetVenue.v2,
  flags,
  pool: moving.pair,
  tokenIn,
  tokenOut: tokenIn === moving.token ? env.usdc : moving.token,
  fee: 0,
  tickSpacing: 0,
  hooks: "0x0000000000000000000000000000000000000000" as Address,
  amount,
  limit
})

/** Buys the token through the router: the seller's tokens, and the buy tax that primes a swap back. */
const buy = async (seller: Wallet, moving: MovingToken, amountIn: bigint) => {
  const plan = makePlan({
    sellToken: env.usdc,
    buyToken: moving.token,
    recipient: seller.address,
    amountIn,
    steps: [v2Step(moving, env.usdc, amountIn)]
  })
  await sendPlan(seller, env.router, plan)
}

interface Shape {
  readonly name: string
  /** The router's plan and Router02's (amount, path) for the same sell. */
  readonly trades: (seller: Wallet, moving: MovingToken) => Promise<{
    readonly plan: RouterPlan
    readonly amount: bigint
    readonly path: ReadonlyArray<Address>
  }>
}

const half = async (seller: Wallet, moving: MovingToken) => (await seller.balanceOf(moving.token)) / 2n

const shapes: ReadonlyArray<Shape> = [
  {
    name: "exact-in to USDC",
    trades: async (seller, moving) => {
      const amount = await half(seller, moving)
      const plan = makePlan({
        sellToken: moving.token,
        buyToken: env.usdc,
        recipient: seller.address,
        amountIn: amount,
        steps: [v2Step(moving, moving.token, amount)]
      })
      return { plan, amount, path: [moving.token, env.usdc] }
    }
  },
  {
    name: "WHOLE_BALANCE to USDC",
    trades: async (seller, moving) => {
      const plan = makePlan({
        sellToken: moving.token,
        buyToken: env.usdc,
        recipient: seller.address,
        amountIn: WHOLE_BALANCE,
        steps: [v2Step(moving, moving.token, WHOLE_BALANCE)]
      })
      return { plan, amount: await seller.balanceOf(moving.token), path: [moving.token, env.usdc] }
    }
  },
  {
    name: "two-hop to WETH through the seeded v2 pair",
    trades: async (seller, moving) => {
      const amount = await half(seller, moving)
      const WETH = env.token("WETH")
      const plan = makePlan({
        sellToken: moving.token,
        buyToken: WETH,
        recipient: seller.address,
        amountIn: amount,
        steps: [
          v2Step(moving, moving.token, amount, StepFlag.toRouter),
          poolStep(env.manifest, "v2:WETH/USDC", env.usdc, SHARE_ALL, { flags: StepFlag.fromRouter })
        ]
      })
      return { plan, amount, path: [moving.token, env.usdc, WETH] }
    }
  }
]

describe("a sell that moves its pair's reserves: the router delivers what Router02 delivers", () => {
  const cases = shapes.flatMap((shape) =>
    ["swapBack", "swapBackBuyTax", "pairBurn"].map((key) => [key, shape.name, shape] as const)
  )

  it.each(cases)("%s, %s", async (key, _, shape) => {
    const moving = env[key as "swapBack" | "swapBackBuyTax" | "pairBurn"]
    const seller = env.trader(1)
    await approveAll(seller, [env.usdc, moving.token], [env.router, env.router02])
    await buy(seller, moving, usdc("2000"))
    const { plan, amount, path } = await shape.trades(seller, moving)
    const buyToken = path[path.length - 1]!
    const watched = [
      [buyToken, seller.address],
      [moving.token, seller.address],
      [env.usdc, env.treasury]
    ] as const
    const supply = () =>
      seller.public.readContract({ address: moving.token, abi: supplyAbi, functionName: "totalSupply" })

    const ours = await fromSnapshot(seller, async () => {
      const burntBefore = await supply()
      const changes = await seller.changes(watched, async () => {
        const { event } = await sendPlan(seller, env.router, plan)
        expect(event.amountIn).toBe(amount)
      })
      return { changes, burnt: burntBefore - (await supply()) }
    })
    const reference = await fromSnapshot(
      seller,
      () =>
        seller.changes(
          watched,
          () =>
            seller.write(env.router02, router02Abi, "swapExactTokensForTokensSupportingFeeOnTransferTokens", [
              amount,
              0n,
              path,
              seller.address,
              maxUint256
            ])
        )
    )
    const [delivered, sold, treasury] = ours.changes
    expect(delivered).toBeGreaterThan(0n)
    // To the base unit, whatever the token did to the pair inside the sell.
    expect(ours.changes).toEqual(reference)
    expect(sold).toBe(-amount)
    // The sell did move the reserves: fees swapped back to the treasury, or the pair's tokens burnt.
    if (key === "pairBurn") expect(ours.burnt).toBeGreaterThan(0n)
    else expect(treasury).toBeGreaterThan(0n)
    expect(await seller.balanceOf(moving.token, env.router)).toBe(0n)
  })
})

describe("exact output through a token that moves the reserves: exact, or a clear revert within limits", () => {
  /** A sell of `moving` for exactly `wanted` USDC, paying at most `limit` tokens in the step, `maxIn` in all. */
  const exactOut = (seller: Wallet, moving: MovingToken, wanted: bigint, limit: bigint, maxIn = limit) =>
    makePlan({
      sellToken: moving.token,
      buyToken: env.usdc,
      recipient: seller.address,
      amountIn: maxIn,
      exactOut: true,
      minAmountOut: wanted,
      steps: [v2Step(moving, moving.token, wanted, StepFlag.exactOut, limit)]
    })
  const quoted = async (seller: Wallet, moving: MovingToken, wanted: bigint) => {
    const { reserveIn, reserveOut } = await v2Reserves(seller, moving.pair, moving.token)
    return { reserveIn, reserveOut, amountIn: getAmountIn(wanted, reserveIn, reserveOut)! }
  }

  it("pool-burn token: exactly the amount, paid what the reserves before the sell asked", async () => {
    const seller = env.trader(2)
    const moving = env.pairBurn
    await approveAll(seller, [env.usdc, moving.token], [env.router])
    await buy(seller, moving, usdc("1000"))
    const wanted = usdc("300")
    const quote = await quoted(seller, moving, wanted)
    const plan = exactOut(seller, moving, wanted, (quote.amountIn * 101n) / 100n)
    const [got, paid] = await seller.changes([[env.usdc, seller.address], [moving.token, seller.address]], async () => {
      const { event } = await sendPlan(seller, env.router, plan)
      expect(event.amountIn).toBe(quote.amountIn)
      expect(event.amountOut).toBe(wanted)
    })
    expect(got).toBe(wanted)
    // The burn raised the price for the seller during its own transfer: the pair keeps the difference.
    expect(paid).toBe(-quote.amountIn)
  })

  it("swap-back token taxing buys only: the swap back moves the price against the seller, one top-up fills exactly", async () => {
    const seller = env.trader(3)
    const moving = env.swapBackBuyTax
    await approveAll(seller, [env.usdc, moving.token], [env.router])
    await buy(seller, moving, usdc("1000"))
    const wanted = usdc("300")
    const quote = await quoted(seller, moving, wanted)
    // What the pair asks once the token has sold its collected fees into it.
    const collected = await seller.balanceOf(moving.token, moving.token)
    const swappedOut = getAmountOut(collected, quote.reserveIn, quote.reserveOut)
    const needed = getAmountIn(wanted, quote.reserveIn + collected, quote.reserveOut - swappedOut)!
    expect(needed).toBeGreaterThan(quote.amountIn)
    const limit = (quote.amountIn * 105n) / 100n
    expect(needed).toBeLessThanOrEqual(limit)

    // Limits the quote alone would have allowed, but the move exceeds: the step's, then the plan's.
    expect(await revertOf(seller, env.router, exactOut(seller, moving, wanted, quote.amountIn, limit))).toBe(
      "StepInputTooHigh"
    )
    expect(await revertOf(seller, env.router, exactOut(seller, moving, wanted, limit, quote.amountIn))).toBe(
      "InputAboveMaximum"
    )
    const [got, paid, treasury] = await seller.changes(
      [[env.usdc, seller.address], [moving.token, seller.address], [env.usdc, env.treasury]],
      async () => {
        const { event } = await sendPlan(seller, env.router, exactOut(seller, moving, wanted, limit))
        expect(event.amountIn).toBe(needed)
      }
    )
    expect(got).toBe(wanted)
    expect(paid).toBe(-needed)
    expect(treasury).toBe(swappedOut)
  })

  it("swap-back token taxing sells: the taxed top-up cannot fill, PairInputShort before the pair's K check", async () => {
    const seller = env.trader(4)
    const moving = env.swapBack
    await approveAll(seller, [env.usdc, moving.token], [env.router])
    await buy(seller, moving, usdc("1000"))
    const quote = await quoted(seller, moving, usdc("300"))
    const plan = exactOut(seller, moving, usdc("300"), quote.amountIn * 2n)
    expect(await revertOf(seller, env.router, plan)).toBe("PairInputShort")
  })

  it("a plain v2 pair is paid once, exactly the pool math's input (no top-up where nothing moved)", async () => {
    const seller = env.trader(5)
    const WETH = env.token("WETH")
    const pair = poolByLabel(env.manifest, "v2:WETH/USDC").address as Address
    await approveAll(seller, [env.usdc], [env.router])
    const wanted = parseUnits("0.1", 18)
    const { reserveIn, reserveOut } = await v2Reserves(seller, pair, env.usdc)
    const needed = getAmountIn(wanted, reserveIn, reserveOut)!
    const plan = makePlan({
      sellToken: env.usdc,
      buyToken: WETH,
      recipient: seller.address,
      amountIn: needed * 2n,
      exactOut: true,
      minAmountOut: wanted,
      steps: [
        poolStep(env.manifest, "v2:WETH/USDC", env.usdc, wanted, { flags: StepFlag.exactOut, limit: needed * 2n })
      ]
    })
    const [paid, got] = await seller.changes(
      [[env.usdc, seller.address], [WETH, seller.address]],
      () => sendPlan(seller, env.router, plan)
    )
    expect([paid, got]).toEqual([-needed, wanted])
  })
})

/**
 * The seeded pools are real Uniswap pools: a swap on each venue kind moves balances exactly as the
 * pool math says, computed here from the pool's own state before the swap. Runs on a private devnet
 * because it moves prices.
 * Over 200 lines: one private devnet shared by the three venue kinds' swaps and their expected amounts.
 */
import { type Address, type Hex, parseEventLogs, parseUnits } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DYNAMIC_FEE_FLAG } from "../../schema/Chain.js"
import type { ManifestPool } from "../../schema/Manifest.js"
import {
  dynamicFeeHookAbi,
  swapFeeHookAbi,
  v2PairAbi,
  v3PoolAbi,
  v3SwapRouterAbi,
  v4PoolManagerAbi,
  v4StateViewAbi,
  v4SwapHelperAbi
} from "../support/abis.js"
import {
  contractAddress,
  manifestAccount,
  poolByLabel,
  type PrivateDevnet,
  startDevnet,
  tokenAddress
} from "../support/devnet.js"
import { exactInStep, v2AmountOut } from "../support/poolMath.js"
import { type Wallet, walletFor } from "../support/wallet.js"

const MIN_SQRT_PRICE = 4295128739n
const MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342n

let devnet: PrivateDevnet
let trader: Wallet

beforeAll(async () => {
  devnet = await startDevnet()
  trader = walletFor(devnet.manifest, manifestAccount(devnet.manifest, 6))
})
afterAll(() => devnet?.stop())

const other = (pool: ManifestPool, tokenIn: Address) =>
  (tokenIn.toLowerCase() === pool.token0.toLowerCase() ? pool.token1 : pool.token0) as Address

describe("Uniswap v2", () => {
  it("pays out the constant-product amount after the 0.3 % fee", async () => {
    const pool = poolByLabel(devnet.manifest, "v2:WETH/USDC")
    const usdc = tokenAddress(devnet.manifest, "USDC")
    const weth = tokenAddress(devnet.manifest, "WETH")
    const pair = pool.address as Address
    const amountIn = parseUnits("2500", 6)
    const [r0, r1] = await trader.public.readContract({ address: pair, abi: v2PairAbi, functionName: "getReserves" })
    const usdcIs0 = usdc.toLowerCase() === pool.token0.toLowerCase()
    const [reserveIn, reserveOut] = usdcIs0 ? [r0, r1] : [r1, r0]
    const expected = v2AmountOut(amountIn, reserveIn, reserveOut)

    const [wethDelta] = await trader.deltas(weth, [trader.address], async () => {
      await trader.transfer(usdc, pair, amountIn)
      await trader.write(pair, v2PairAbi, "swap", [
        usdcIs0 ? 0n : expected,
        usdcIs0 ? expected : 0n,
        trader.address,
        "0x"
      ])
    })
    expect(wethDelta).toBe(expected)
    const [a0, a1] = await trader.public.readContract({ address: pair, abi: v2PairAbi, functionName: "getReserves" })
    expect(usdcIs0 ? [a0, a1] : [a1, a0]).toEqual([reserveIn + amountIn, reserveOut - expected])
  })

  it("refuses to pay out one unit more than the formula allows", async () => {
    const pool = poolByLabel(devnet.manifest, "v2:WBTC/USDC")
    const usdc = tokenAddress(devnet.manifest, "USDC")
    const pair = pool.address as Address
    const amountIn = parseUnits("1000", 6)
    const [r0, r1] = await trader.public.readContract({ address: pair, abi: v2PairAbi, functionName: "getReserves" })
    const usdcIs0 = usdc.toLowerCase() === pool.token0.toLowerCase()
    const out = v2AmountOut(amountIn, usdcIs0 ? r0 : r1, usdcIs0 ? r1 : r0) + 1n
    await trader.transfer(usdc, pair, amountIn)
    await expect(
      trader.public.simulateContract({
        account: trader.account,
        address: pair,
        abi: v2PairAbi,
        functionName: "swap",
        args: [usdcIs0 ? 0n : out, usdcIs0 ? out : 0n, trader.address, "0x"]
      })
    ).rejects.toThrow(/UniswapV2: K/)
  })
})

describe("Uniswap v3", () => {
  const swapV3 = async (label: string, inLabel: string, amount: string) => {
    const pool = poolByLabel(devnet.manifest, label)
    const address = pool.address as Address
    const tokenIn = tokenAddress(devnet.manifest, inLabel)
    const tokenOut = other(pool, tokenIn)
    const decimals = inLabel === "USDC" ? 6 : 18
    const amountIn = parseUnits(amount, decimals)
    const [[sqrtPriceX96], liquidity, fee] = await Promise.all([
      trader.public.readContract({ address, abi: v3PoolAbi, functionName: "slot0" }),
      trader.public.readContract({ address, abi: v3PoolAbi, functionName: "liquidity" }),
      trader.public.readContract({ address, abi: v3PoolAbi, functionName: "fee" })
    ])
    const zeroForOne = tokenIn.toLowerCase() === pool.token0.toLowerCase()
    const step = exactInStep(sqrtPriceX96, liquidity, amountIn, BigInt(fee), zeroForOne)

    const router = contractAddress(devnet.manifest, "v3SwapRouter")
    await trader.approve(tokenIn, router)
    const [spent, received, poolPaid] = await trader.changes(
      [[tokenIn, trader.address], [tokenOut, trader.address], [tokenOut, address]],
      () =>
        trader.write(router, v3SwapRouterAbi, "exactInputSingle", [{
          tokenIn,
          tokenOut,
          fee,
          recipient: trader.address,
          deadline: 2n ** 64n,
          amountIn,
          amountOutMinimum: step.amountOut,
          sqrtPriceLimitX96: 0n
        }])
    )
    expect(spent).toBe(-amountIn)
    expect(received).toBe(step.amountOut)
    expect(poolPaid).toBe(-step.amountOut)
    const [after] = await trader.public.readContract({ address, abi: v3PoolAbi, functionName: "slot0" })
    // Same price the formula predicts: the swap stayed inside one liquidity range.
    expect(after).toBe(step.sqrtPriceAfter)
  }

  it("swaps USDC in on a full-range 0.3 % pool exactly as the sqrt-price math says", () =>
    swapV3("v3:WETH/USDC:3000", "USDC", "5000"))

  it("swaps WETH in (the other direction) on the same pool", () => swapV3("v3:WETH/USDC:3000", "WETH", "1.5"))

  it("swaps on the concentrated 0.05 % pool", () => swapV3("v3:WETH/USDC:500", "USDC", "20000"))
})

describe("Uniswap v4", () => {
  const swapV4 = async (label: string, inLabel: string, amount: string, decimals: number) => {
    const manifest = devnet.manifest
    const pool = poolByLabel(manifest, label)
    const id = pool.id as Hex
    const tokenIn = tokenAddress(manifest, inLabel)
    const tokenOut = other(pool, tokenIn)
    const amountIn = parseUnits(amount, decimals)
    const stateView = contractAddress(manifest, "v4StateView")
    const hooks = (pool.hooks ?? "0x0000000000000000000000000000000000000000") as Address
    const zeroForOne = tokenIn.toLowerCase() === pool.token0.toLowerCase()

    const helper = contractAddress(manifest, "v4SwapHelper")
    await trader.approve(tokenIn, helper)
    const key = {
      currency0: pool.token0 as Address,
      currency1: pool.token1 as Address,
      fee: pool.fee ?? DYNAMIC_FEE_FLAG,
      tickSpacing: pool.tickSpacing ?? 0,
      hooks
    }
    let logs: ReadonlyArray<unknown> = []
    let swapBlock = 0n
    const [outDelta] = await trader.deltas(tokenOut, [trader.address], async () => {
      const receipt = await trader.write(helper, v4SwapHelperAbi, "swap", [
        key,
        {
          zeroForOne,
          amountSpecified: -amountIn,
          sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n
        },
        { takeClaims: false, settleUsingBurn: false },
        "0x"
      ])
      logs = receipt.logs
      swapBlock = receipt.blockNumber
    })
    // The expected step from the pool as the swap found it (the block before, automine puts one
    // transaction in a block). A dynamic-fee pool charges what its hook says at the swap's own block
    // time, so the fee is read at that block: read before sending, a second boundary could pass.
    const before = { blockNumber: swapBlock - 1n }
    const [[sqrtPriceX96, , , lpFee], liquidity] = await Promise.all([
      trader.public.readContract({
        address: stateView,
        abi: v4StateViewAbi,
        functionName: "getSlot0",
        args: [id],
        ...before
      }),
      trader.public.readContract({
        address: stateView,
        abi: v4StateViewAbi,
        functionName: "getLiquidity",
        args: [id],
        ...before
      })
    ])
    const fee = pool.fee === null
      ? await trader.public.readContract({
        address: hooks,
        abi: dynamicFeeHookAbi,
        functionName: "currentFee",
        args: [id],
        blockNumber: swapBlock
      })
      : lpFee
    const step = exactInStep(sqrtPriceX96, liquidity, amountIn, BigInt(fee), zeroForOne)
    const [swap] = parseEventLogs({ abi: v4PoolManagerAbi, eventName: "Swap", logs: logs as never })
    expect(swap?.args.id).toBe(id)
    expect(swap?.args.fee).toBe(fee)
    expect(swap?.args.sqrtPriceX96).toBe(step.sqrtPriceAfter)
    return { pool, step, outDelta: outDelta ?? 0n, tokenOut }
  }

  it("swaps on a plain pool exactly as the sqrt-price math says", async () => {
    const { step, outDelta } = await swapV4("v4:WBTC/USDC:3000", "USDC", "3000", 6)
    expect(outDelta).toBe(step.amountOut)
  })

  it("swaps on the hooked dynamic-fee pool at the fee its hook sets", async () => {
    const pool = poolByLabel(devnet.manifest, "v4:ZAP/USDC:dynamic:dynamicFeeHook")
    expect(pool.fee).toBeNull()
    expect(pool.hooks).toBe(contractAddress(devnet.manifest, "dynamicFeeHook"))
    const { step, outDelta } = await swapV4(pool.label, "USDC", "250", 6)
    expect(outDelta).toBe(step.amountOut)
  })

  it("swaps WETH on the hooked WETH/USDC pool (dynamic fee, the other direction)", async () => {
    const { step, outDelta } = await swapV4("v4:WETH/USDC:dynamic:dynamicFeeHook", "WETH", "0.5", 18)
    expect(outDelta).toBe(step.amountOut)
  })

  it("delivers the pool's output less the creator fee its hook takes", async () => {
    const manifest = devnet.manifest
    const hook = contractAddress(manifest, "swapFeeHook")
    const [feeBps, recipient] = await Promise.all([
      trader.public.readContract({ address: hook, abi: swapFeeHookAbi, functionName: "feeBps" }),
      trader.public.readContract({ address: hook, abi: swapFeeHookAbi, functionName: "feeRecipient" })
    ])
    const bloom = tokenAddress(manifest, "BLOOM")
    const [recipientDelta] = await trader.deltas(bloom, [recipient], async () => {
      const { step, outDelta } = await swapV4("v4:BLOOM/USDC:3000:swapFeeHook", "USDC", "400", 6)
      const creatorFee = (step.amountOut * BigInt(feeBps)) / 10_000n
      expect(creatorFee).toBeGreaterThan(0n)
      expect(outDelta).toBe(step.amountOut - creatorFee)
    })
    expect(recipientDelta).toBeGreaterThan(0n)
  })
})

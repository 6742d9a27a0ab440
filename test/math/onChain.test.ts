/**
 * The pool math against the real contracts on a private anvil: TickMath against v4-core's own test
 * contract, v2 getAmountOut against a UniswapV2Pair's K check, and a v3 swap across several initialized
 * ticks against UniswapV3Pool executing it (through Uniswap's own SwapRouter).
 * Over 200 lines: the three comparisons share one private anvil and its deployments.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { type Abi, type Address, getAddress, type Hex, maxUint256, parseAbi } from "viem"
import { type ConcentratedState, swap } from "../../src/math/ConcentratedSwap.js"
import { getAmountIn, getAmountOut } from "../../src/math/ConstantProduct.js"
import { getSqrtPriceAtTick, getTickAtSqrtPrice, MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "../../src/math/TickMath.js"
import { type Chain, type Deployed, startChain } from "../contracts/chain.js"

let chain: Chain
beforeAll(async () => {
  chain = await startChain()
})
afterAll(() => chain?.stop())

const deadline = 2n ** 40n

const token = (symbol: string, decimals = 18) =>
  chain.deploy("DevToken", [`${symbol} token`, symbol, decimals, 10n ** 40n])

/** Deterministic pseudo-random numbers, so a failure reproduces. */
const lcg = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  return seed / 2 ** 31
}

describe("TickMath against v4-core's TickMathTest", () => {
  it("agrees on random ticks and prices", async () => {
    const artifact = JSON.parse(
      readFileSync("node_modules/@uniswap/v4-core/out/TickMathTest.sol/TickMathTest.json", "utf8")
    ) as { abi: Abi; bytecode: { object: Hex } }
    const hash = chain.walletClient.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode.object,
      account: chain.deployer,
      chain: chain.chain
    })
    const tickMath = chain.at(artifact.abi, (await chain.send(hash)).contractAddress!)
    const random = lcg(7)
    for (let i = 0; i < 40; i++) {
      const tick = Math.round((random() * 2 - 1) * 887272)
      expect(await tickMath.read("getSqrtPriceAtTick", [tick])).toBe(getSqrtPriceAtTick(tick))
      const price = MIN_SQRT_PRICE + BigInt(Math.floor(random() * 2 ** 52)) * ((MAX_SQRT_PRICE - MIN_SQRT_PRICE) >> 52n)
      expect(Number(await tickMath.read("getTickAtSqrtPrice", [price]))).toBe(getTickAtSqrtPrice(price))
    }
  })
})

describe("v2 constant product against UniswapV2Pair", () => {
  it("getAmountOut is the largest output the pair's K check accepts", async () => {
    const factory = await chain.deploy("UniswapV2Factory", [chain.deployer.address])
    const a = await token("AAA")
    const b = await token("BBB", 6)
    await factory.write("createPair", [a.address, b.address])
    const pairAddress = (await factory.read("getPair", [a.address, b.address])) as Address
    const pairAbi = parseAbi([
      "function mint(address) returns (uint256)",
      "function swap(uint256,uint256,address,bytes)",
      "function getReserves() view returns (uint112,uint112,uint32)",
      "function token0() view returns (address)"
    ])
    const pair = chain.at(pairAbi, pairAddress)
    await a.write("transfer", [pairAddress, 1_234_567n * 10n ** 18n])
    await b.write("transfer", [pairAddress, 987_654n * 10n ** 6n])
    await pair.write("mint", [chain.deployer.address])
    const token0 = getAddress((await pair.read("token0")) as Address)
    const [reserve0, reserve1] = (await pair.read("getReserves")) as readonly [bigint, bigint, number]
    const [reserveA, reserveB] = token0 === a.address ? [reserve0, reserve1] : [reserve1, reserve0]

    const amountIn = 5_000n * 10n ** 18n
    const out = getAmountOut(amountIn, reserveA, reserveB)
    const outs = (amount: bigint) => token0 === a.address ? [0n, amount] : [amount, 0n]
    await a.write("transfer", [pairAddress, amountIn])
    await expect(pair.write("swap", [...outs(out + 1n), chain.deployer.address, "0x"])).rejects.toThrow()
    await pair.write("swap", [...outs(out), chain.deployer.address, "0x"])

    const needed = getAmountIn(out, reserveA, reserveB)!
    expect(needed).toBeLessThanOrEqual(amountIn)
    expect(getAmountOut(needed, reserveA, reserveB)).toBeGreaterThanOrEqual(out)
    expect(getAmountOut(needed - 1n, reserveA, reserveB)).toBeLessThan(out)
  })
})

describe("v3 swap across ticks against UniswapV3Pool", () => {
  const poolAbi = parseAbi([
    "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
    "function liquidity() view returns (uint128)",
    "function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)"
  ])
  const fee = 3000
  const ranges: ReadonlyArray<readonly [number, number, bigint]> = [
    [-600, 600, 10n ** 21n],
    [-1800, -600, 3n * 10n ** 20n],
    [-240, 120, 5n * 10n ** 20n],
    [600, 2400, 2n * 10n ** 20n],
    [-60_000, 60_000, 2n * 10n ** 20n]
  ]

  let pool: Deployed
  let router: Deployed
  let token0: Deployed
  let token1: Deployed

  const readState = async (): Promise<ConcentratedState> => {
    const [sqrtPriceX96, tick] = (await pool.read("slot0")) as readonly [bigint, number]
    const liquidity = (await pool.read("liquidity")) as bigint
    const boundaries = [...new Set(ranges.flatMap(([lower, upper]) => [lower, upper]))].sort((x, y) => x - y)
    const ticks = await Promise.all(boundaries.map(async (t) => {
      const info = (await pool.read("ticks", [t])) as readonly [bigint, bigint]
      return { tick: t, liquidityNet: info[1] }
    }))
    return { sqrtPriceX96, tick: Number(tick), liquidity, tickSpacing: 60, ticks }
  }

  beforeAll(async () => {
    const factory = await chain.deploy("UniswapV3Factory")
    const zero = "0x0000000000000000000000000000000000000000"
    const positions = await chain.deploy("NonfungiblePositionManager", [factory.address, zero, zero])
    router = await chain.deploy("SwapRouter", [factory.address, zero])
    const [x, y] = [await token("XXX"), await token("YYY")]
    ;[token0, token1] = x.address.toLowerCase() < y.address.toLowerCase() ? [x, y] : [y, x]
    for (const t of [token0, token1]) {
      await t.write("approve", [positions.address, maxUint256])
      await t.write("approve", [router.address, maxUint256])
    }
    await positions.write("createAndInitializePoolIfNecessary", [
      token0.address,
      token1.address,
      fee,
      getSqrtPriceAtTick(-30)
    ])
    for (const [tickLower, tickUpper, amount] of ranges) {
      await positions.write("mint", [{
        token0: token0.address,
        token1: token1.address,
        fee,
        tickLower,
        tickUpper,
        amount0Desired: amount,
        amount1Desired: amount,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: chain.deployer.address,
        deadline
      }])
    }
    pool = chain.at(poolAbi, (await factory.read("getPool", [token0.address, token1.address, fee])) as Address)
  })

  const exactIn = async (tokenIn: Deployed, tokenOut: Deployed, amountIn: bigint) => {
    const params = {
      tokenIn: tokenIn.address,
      tokenOut: tokenOut.address,
      fee,
      recipient: chain.deployer.address,
      deadline,
      amountIn,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n
    }
    const { result } = await chain.publicClient.simulateContract({
      address: router.address,
      abi: (await import("../../devnet/Artifacts.js")).loadArtifact("SwapRouter").abi,
      functionName: "exactInputSingle",
      args: [params],
      account: chain.deployer
    })
    await router.write("exactInputSingle", [params])
    return result as bigint
  }

  it("exact input zeroForOne crossing several ticks: same output, price, tick and liquidity", async () => {
    const before = await readState()
    const amountIn = 1_600n * 10n ** 18n
    const model = swap(before, { zeroForOne: true, amountSpecified: amountIn, feePips: BigInt(fee) })
    const amountOut = await exactIn(token0, token1, amountIn)
    const after = await readState()
    expect(model.amountOut).toBe(amountOut)
    expect(model.amountIn).toBe(amountIn)
    expect(model.sqrtPriceX96).toBe(after.sqrtPriceX96)
    expect(model.tick).toBe(after.tick)
    expect(model.liquidity).toBe(after.liquidity)
    expect(after.tick).toBeLessThan(-600)
  })

  it("exact input oneForZero back up through the ranges", async () => {
    const before = await readState()
    const amountIn = 3_200n * 10n ** 18n
    const model = swap(before, { zeroForOne: false, amountSpecified: amountIn, feePips: BigInt(fee) })
    const amountOut = await exactIn(token1, token0, amountIn)
    const after = await readState()
    expect(model.amountOut).toBe(amountOut)
    expect(model.sqrtPriceX96).toBe(after.sqrtPriceX96)
    expect(model.tick).toBe(after.tick)
    expect(model.liquidity).toBe(after.liquidity)
    expect(after.tick).toBeGreaterThan(600)
  })

  it("exact output: the input the pool charges", async () => {
    const before = await readState()
    const amountOut = 500n * 10n ** 18n
    const model = swap(before, { zeroForOne: true, amountSpecified: -amountOut, feePips: BigInt(fee) })
    const params = {
      tokenIn: token0.address,
      tokenOut: token1.address,
      fee,
      recipient: chain.deployer.address,
      deadline,
      amountOut,
      amountInMaximum: maxUint256,
      sqrtPriceLimitX96: 0n
    }
    const { result } = await chain.publicClient.simulateContract({
      address: router.address,
      abi: (await import("../../devnet/Artifacts.js")).loadArtifact("SwapRouter").abi,
      functionName: "exactOutputSingle",
      args: [params],
      account: chain.deployer
    })
    await router.write("exactOutputSingle", [params])
    const after = await readState()
    expect(model.amountOut).toBe(amountOut)
    expect(model.amountIn).toBe(result)
    expect(model.sqrtPriceX96).toBe(after.sqrtPriceX96)
    expect(model.liquidity).toBe(after.liquidity)
  })
})

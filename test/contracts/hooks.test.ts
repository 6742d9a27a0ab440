import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeDeployData,
  type Hex,
  keccak256,
  parseEventLogs,
  parseUnits,
  toFunctionSelector,
  type TransactionReceipt
} from "viem"
import type { HDAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CREATE2_DEPLOYER, hookFlags, loadArtifact, mineHookSalt } from "../../devnet/Artifacts.js"
import { DYNAMIC_FEE_FLAG, HOOK_FLAG_MASK } from "../../schema/Chain.js"
import { type Chain, type Deployed, startChain } from "./chain.js"

const MIN_SQRT_PRICE_LIMIT = 4295128739n + 1n
const MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970342n - 1n
const ONE_TO_ONE = 2n ** 96n
const e18 = (amount: string) => parseUnits(amount, 18)

interface PoolKey {
  readonly currency0: Address
  readonly currency1: Address
  readonly fee: number
  readonly tickSpacing: number
  readonly hooks: Address
}

const poolIdOf = (key: PoolKey): Hex =>
  keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]
    )
  )

describe("v4 hooks deployed at mined CREATE2 addresses", () => {
  let chain: Chain
  let manager: Deployed
  let swapRouter: Deployed
  let liquidityRouter: Deployed
  let token0: Deployed
  let token1: Deployed
  let trader: HDAccount
  let feeRecipient: HDAccount

  const deployHook = async (name: keyof typeof hookFlags, args: ReadonlyArray<unknown>): Promise<Deployed> => {
    const { abi, bytecode } = loadArtifact(name)
    const initCode = encodeDeployData({ abi, bytecode, args })
    const { salt, address } = mineHookSalt(initCode, hookFlags[name])
    expect(Number(BigInt(address) & BigInt(HOOK_FLAG_MASK))).toBe(hookFlags[name])
    await chain.send(
      chain.walletClient.sendTransaction({
        account: chain.deployer,
        chain: chain.chain,
        to: CREATE2_DEPLOYER,
        data: concat([salt, initCode])
      })
    )
    expect(await chain.publicClient.getCode({ address })).not.toBeUndefined()
    return chain.at(abi, address)
  }

  /** Initializes the pool at price 1 and adds liquidity around it from the deployer. */
  const openPool = async (key: PoolKey) => {
    await manager.write("initialize", [key, ONE_TO_ONE])
    await liquidityRouter.write("modifyLiquidity", [
      key,
      { tickLower: -6000, tickUpper: 6000, liquidityDelta: e18("1000"), salt: `0x${"0".repeat(64)}` },
      "0x"
    ])
  }

  const swap = (key: PoolKey, zeroForOne: boolean, amountSpecified: bigint) =>
    swapRouter.write(
      "swap",
      [
        key,
        { zeroForOne, amountSpecified, sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT },
        { takeClaims: false, settleUsingBurn: false },
        "0x"
      ],
      { from: trader }
    )

  const swapEvent = (receipt: TransactionReceipt) => {
    const [log] = parseEventLogs({ abi: loadArtifact("PoolManager").abi, logs: receipt.logs, eventName: "Swap" })
    return log!.args as { amount0: bigint; amount1: bigint; fee: number }
  }

  /** The LP fee stored in the pool's slot0 (bits 208..231), read with extsload like StateLibrary. */
  const storedLpFee = async (key: PoolKey) => {
    const slot = keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [poolIdOf(key), 6n]))
    const slot0 = BigInt((await manager.read("extsload", [slot])) as Hex)
    return Number((slot0 >> 208n) & 0xffffffn)
  }

  const balance = (token: Deployed, who: Address) => token.read("balanceOf", [who]) as Promise<bigint>

  beforeAll(async () => {
    chain = await startChain()
    ;[, trader, feeRecipient] = chain.accounts as [HDAccount, HDAccount, HDAccount]
    manager = await chain.deploy("PoolManager", [chain.deployer.address])
    swapRouter = await chain.deploy("PoolSwapTest", [manager.address])
    liquidityRouter = await chain.deploy("PoolModifyLiquidityTest", [manager.address])
    const a = await chain.deploy("DevToken", ["Alpha", "ALPHA", 18, e18("1000000")])
    const b = await chain.deploy("DevToken", ["Beta", "BETA", 18, e18("1000000")])
    ;[token0, token1] = BigInt(a.address) < BigInt(b.address) ? [a, b] : [b, a]
    for (const token of [token0, token1]) {
      await token.write("transfer", [trader.address, e18("1000")])
      for (const spender of [swapRouter.address, liquidityRouter.address]) {
        await token.write("approve", [spender, 2n ** 256n - 1n])
        await token.write("approve", [spender, 2n ** 256n - 1n], { from: trader })
      }
    }
  })
  afterAll(() => chain.stop())

  it("DynamicFeeHook charges a launch fee that decays linearly to the base fee", async () => {
    const hook = await deployHook("DynamicFeeHook", [manager.address, 100_000, 3_000, 1_000])
    const key = {
      currency0: token0.address,
      currency1: token1.address,
      fee: DYNAMIC_FEE_FLAG,
      tickSpacing: 60,
      hooks: hook.address
    }
    await openPool(key)
    expect(await storedLpFee(key)).toBe(100_000)

    const launchedAt = (await hook.read("launchedAt", [poolIdOf(key)])) as bigint
    await chain.testClient.setNextBlockTimestamp({ timestamp: launchedAt + 250n })
    expect(swapEvent(await swap(key, true, -e18("1"))).fee).toBe(100_000 - (97_000 * 250) / 1_000)
    expect(await storedLpFee(key)).toBe(75_750)

    await chain.testClient.setNextBlockTimestamp({ timestamp: launchedAt + 1_000n })
    expect(swapEvent(await swap(key, false, -e18("1"))).fee).toBe(3_000)
    expect(await hook.read("currentFee", [poolIdOf(key)])).toBe(3_000)
  })

  it("DynamicFeeHook refuses a pool created with a static fee", async () => {
    const hook = await deployHook("DynamicFeeHook", [manager.address, 50_000, 500, 60])
    const key = {
      currency0: token0.address,
      currency1: token1.address,
      fee: 3_000,
      tickSpacing: 60,
      hooks: hook.address
    }
    // The PoolManager wraps a hook's revert in WrappedError, which carries the hook's own error inside.
    const inner = toFunctionSelector("PoolFeeNotDynamic()").slice(2)
    await expect(manager.write("initialize", [key, ONE_TO_ONE])).rejects.toThrow(inner)
  })

  it("SwapFeeHook sends 1% of the unspecified side to its recipient, exact in and exact out", async () => {
    const hook = await deployHook("SwapFeeHook", [manager.address, 100, feeRecipient.address])
    const key = {
      currency0: token0.address,
      currency1: token1.address,
      fee: 3_000,
      tickSpacing: 60,
      hooks: hook.address
    }
    await openPool(key)

    const out1Before = await balance(token1, trader.address)
    const exactIn = swapEvent(await swap(key, true, -e18("1")))
    const poolOut = exactIn.amount1 < 0n ? -exactIn.amount1 : exactIn.amount1
    const cut = (poolOut * 100n) / 10_000n
    expect(cut).toBeGreaterThan(0n)
    expect(await balance(token1, feeRecipient.address)).toBe(cut)
    expect(await balance(token1, trader.address)).toBe(out1Before + poolOut - cut)

    const [out0Before, in1Before] = [await balance(token0, trader.address), await balance(token1, trader.address)]
    const exactOut = swapEvent(await swap(key, false, e18("0.5")))
    const poolIn = exactOut.amount1 < 0n ? -exactOut.amount1 : exactOut.amount1
    const surcharge = (poolIn * 100n) / 10_000n
    expect(await balance(token1, feeRecipient.address)).toBe(cut + surcharge)
    expect(await balance(token1, trader.address)).toBe(in1Before - poolIn - surcharge)
    expect(await balance(token0, trader.address)).toBe(out0Before + e18("0.5"))
  })
})

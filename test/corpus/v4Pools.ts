/**
 * The corpus's v4 pools: a plain token in a USDC pool behind a sell-fee hook deployed at a mined CREATE2
 * address (its permission bits), at 1 USDC per token with about $50,000 a side over the full range, and
 * swaps on it through Uniswap's PoolSwapTest as a wallet would make them.
 */
import { type Address, concat, encodeAbiParameters, encodeDeployData, type Hex, keccak256, maxUint256 } from "viem"
import { CREATE2_DEPLOYER, loadArtifact, mineHookSalt } from "../../devnet/Artifacts.js"
import type { Manifest } from "../../schema/Manifest.js"
import { sqrt } from "../../src/math/FullMath.js"
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "../../src/math/TickMath.js"
import { v4SwapHelperAbi } from "../support/abis.js"
import { contractAddress } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"
import { corpusArtifact, deployed } from "./artifacts.js"

/** afterSwap | afterSwapReturnDelta (v4-core Hooks.sol). */
const SELL_FEE_HOOK_FLAGS = 0x0044
/** Full range at tick spacing 60; L = sqrt(50,000e18 · 50,000e6) puts $50,000 on each side at $1. */
const FULL_RANGE = { tickLower: -887_220, tickUpper: 887_220, liquidityDelta: 5n * 10n ** 16n }

export interface HookedPool {
  readonly key: {
    readonly currency0: Address
    readonly currency1: Address
    readonly fee: number
    readonly tickSpacing: number
    readonly hooks: Address
  }
  readonly id: Hex
  readonly hook: Address
  readonly feeRecipient: Address
}

const deployHook = async (lp: Wallet, args: ReadonlyArray<unknown>): Promise<Address> => {
  const { abi, bytecode } = corpusArtifact("CorpusSellFeeHook")
  const initCode = encodeDeployData({ abi, bytecode, args } as never)
  const { salt, address } = mineHookSalt(initCode, SELL_FEE_HOOK_FLAGS)
  const hash = await lp.wallet.sendTransaction({
    account: lp.account,
    chain: lp.chain,
    to: CREATE2_DEPLOYER,
    data: concat([salt, initCode]),
    gas: 5_000_000n
  })
  await lp.public.waitForTransactionReceipt({ hash })
  return address
}

/** A new plain token of `lp`'s in a USDC pool whose hook keeps `sellFeeBps` of each sell for `feeRecipient`. */
export const listBehindSellFeeHook = async (
  manifest: Manifest,
  lp: Wallet,
  symbol: string,
  sellFeeBps: number,
  feeRecipient: Address
) => {
  const usdc = contractAddress(manifest, "usdc")
  const manager = contractAddress(manifest, "v4PoolManager")
  const helper = contractAddress(manifest, "v4LiquidityHelper")
  const token = await deployed(lp, loadArtifact("DevToken"), [symbol, symbol, 18, 1_000_000n * 10n ** 18n])
  const hook = await deployHook(lp, [manager, token, sellFeeBps, feeRecipient])
  const [currency0, currency1] = token.toLowerCase() < usdc.toLowerCase() ? [token, usdc] : [usdc, token]
  const key = { currency0, currency1, fee: 3000, tickSpacing: 60, hooks: hook }
  const id = keccak256(encodeAbiParameters(
    [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
    [currency0, currency1, key.fee, key.tickSpacing, hook]
  ))
  // price = currency1 per currency0 in base units: 1 USDC (1e6) per token (1e18).
  const [amount0, amount1] = currency0 === token ? [10n ** 18n, 10n ** 6n] : [10n ** 6n, 10n ** 18n]
  await lp.write(manager, loadArtifact("PoolManager").abi, "initialize", [key, sqrt((amount1 << 192n) / amount0)])
  for (const asset of [token, usdc]) await lp.approve(asset, helper, maxUint256)
  await lp.write(helper, loadArtifact("PoolModifyLiquidityTest").abi, "modifyLiquidity", [
    key,
    { ...FULL_RANGE, salt: `0x${"00".repeat(32)}` },
    "0x"
  ])
  return { token, pool: { key, id, hook, feeRecipient } satisfies HookedPool }
}

/** An exact-in swap of `amountIn` of `tokenIn` on `pool` through PoolSwapTest; resolves with what left
 * the wallet and what arrived. */
export const swapOnPoolSwapTest = async (
  manifest: Manifest,
  wallet: Wallet,
  pool: HookedPool,
  tokenIn: Address,
  amountIn: bigint
) => {
  const helper = contractAddress(manifest, "v4SwapHelper")
  const zeroForOne = tokenIn.toLowerCase() === pool.key.currency0.toLowerCase()
  const tokenOut = zeroForOne ? pool.key.currency1 : pool.key.currency0
  await wallet.approve(tokenIn, helper, maxUint256)
  const [sent, received] = await wallet.changes(
    [[tokenIn, wallet.address], [tokenOut, wallet.address]],
    () =>
      wallet.write(helper, v4SwapHelperAbi, "swap", [
        pool.key,
        {
          zeroForOne,
          amountSpecified: -amountIn,
          sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n
        },
        { takeClaims: false, settleUsingBurn: false },
        "0x"
      ])
  )
  return { sent: -sent!, received: received! }
}

/**
 * Pool state read from the chain with viem, and what the project's pool math (src/math) says a swap
 * on it delivers: the reference every router execution is held to, base unit for base unit.
 */
import { type Address, getAddress, type Hex, parseAbi } from "viem"
import { type ConcentratedState, swap } from "../../src/math/ConcentratedSwap.js"
import { getAmountOut } from "../../src/math/ConstantProduct.js"
import { v4SwapFeePips } from "../../src/math/V4Fees.js"
import type { Wallet } from "../support/wallet.js"

const v2Abi = parseAbi([
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function token0() view returns (address)"
])
const v3Abi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function tickBitmap(int16) view returns (uint256)",
  "function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)"
])
const stateViewAbi = parseAbi([
  "function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)",
  "function getLiquidity(bytes32 poolId) view returns (uint128)",
  "function getTickBitmap(bytes32 poolId, int16 word) view returns (uint256)",
  "function getTickLiquidity(bytes32 poolId, int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet)"
])

/** Words of the tick bitmap read on each side of the current one: enough for the trades tested. */
const WORDS_AROUND = 3

const initializedTicks = async (
  spacing: number,
  tick: number,
  readWord: (word: number) => Promise<bigint>,
  readNet: (tick: number) => Promise<bigint>
) => {
  const word = Math.floor(Math.floor(tick / spacing) / 256)
  const words = Array.from({ length: 2 * WORDS_AROUND + 1 }, (_, i) => word - WORDS_AROUND + i)
  const bitmaps = await Promise.all(words.map(readWord))
  const ticks = words.flatMap((w, i) =>
    Array.from({ length: 256 }, (_, bit) => bit).filter((bit) => ((bitmaps[i]! >> BigInt(bit)) & 1n) === 1n)
      .map((bit) => (w * 256 + bit) * spacing)
  )
  return Promise.all(ticks.map(async (t) => ({ tick: t, liquidityNet: await readNet(t) })))
}

/** Reserves of a v2 pair as (input side, output side) for a swap selling `tokenIn`. */
export const v2Reserves = async (wallet: Wallet, pair: Address, tokenIn: Address) => {
  const [r0, r1] = await wallet.public.readContract({ address: pair, abi: v2Abi, functionName: "getReserves" })
  const token0 = await wallet.public.readContract({ address: pair, abi: v2Abi, functionName: "token0" })
  const zeroForOne = getAddress(token0) === getAddress(tokenIn)
  return zeroForOne ? { reserveIn: r0, reserveOut: r1 } : { reserveIn: r1, reserveOut: r0 }
}

export const v2ExactIn = async (wallet: Wallet, pair: Address, tokenIn: Address, amountIn: bigint) => {
  const { reserveIn, reserveOut } = await v2Reserves(wallet, pair, tokenIn)
  return getAmountOut(amountIn, reserveIn, reserveOut)
}

export const v3State = async (wallet: Wallet, pool: Address): Promise<ConcentratedState> => {
  const read = <T>(functionName: string, args: ReadonlyArray<unknown> = []) =>
    wallet.public.readContract({ address: pool, abi: v3Abi, functionName, args } as never) as Promise<T>
  const [sqrtPriceX96, tick] = await read<readonly [bigint, number]>("slot0")
  const liquidity = await read<bigint>("liquidity")
  const tickSpacing = await read<number>("tickSpacing")
  const ticks = await initializedTicks(
    tickSpacing,
    tick,
    (word) => read<bigint>("tickBitmap", [word]),
    async (t) => (await read<readonly [bigint, bigint]>("ticks", [t]))[1]
  )
  return { sqrtPriceX96, tick, liquidity, tickSpacing, ticks }
}

/** A v3 swap by the pool math: `amountSpecified` positive for exact input, negative for exact output. */
export const v3Swap = async (wallet: Wallet, pool: Address, zeroForOne: boolean, amountSpecified: bigint) => {
  const state = await v3State(wallet, pool)
  const fee = await wallet.public.readContract({ address: pool, abi: v3Abi, functionName: "fee" })
  return swap(state, { zeroForOne, amountSpecified, feePips: BigInt(fee) })
}

export const v3ExactIn = v3Swap

export const v4State = async (wallet: Wallet, stateView: Address, poolId: Hex, tickSpacing: number) => {
  const read = <T>(functionName: string, args: ReadonlyArray<unknown>) =>
    wallet.public.readContract({ address: stateView, abi: stateViewAbi, functionName, args } as never) as Promise<T>
  const [sqrtPriceX96, tick, protocolFee, lpFee] = await read<readonly [bigint, number, number, number]>(
    "getSlot0",
    [poolId]
  )
  const liquidity = await read<bigint>("getLiquidity", [poolId])
  const ticks = await initializedTicks(
    tickSpacing,
    tick,
    (word) => read<bigint>("getTickBitmap", [poolId, word]),
    async (t) => (await read<readonly [bigint, bigint]>("getTickLiquidity", [poolId, t]))[1]
  )
  const state: ConcentratedState = { sqrtPriceX96, tick, liquidity, tickSpacing, ticks }
  return { state, protocolFee, lpFee }
}

/** Exact input on a v4 pool; `lpFee` overrides the stored one (a dynamic-fee hook sets it per swap). */
export const v4ExactIn = async (
  wallet: Wallet,
  stateView: Address,
  poolId: Hex,
  tickSpacing: number,
  zeroForOne: boolean,
  amountIn: bigint,
  lpFee?: number
) => {
  const { state, protocolFee, lpFee: stored } = await v4State(wallet, stateView, poolId, tickSpacing)
  const feePips = v4SwapFeePips(lpFee ?? stored, protocolFee, zeroForOne)
  return swap(state, { zeroForOne, amountSpecified: amountIn, feePips })
}

/** The dynamic-fee hook's fee at `timestamp` (contracts/hooks/DynamicFeeHook.sol `currentFee`). */
export const dynamicFeeAt = async (wallet: Wallet, hook: Address, poolId: Hex, timestamp: bigint) => {
  const abi = parseAbi([
    "function launchedAt(bytes32) view returns (uint256)",
    "function startFee() view returns (uint24)",
    "function baseFee() view returns (uint24)",
    "function decayPeriod() view returns (uint32)"
  ])
  const read = <T>(functionName: string, args: ReadonlyArray<unknown> = []) =>
    wallet.public.readContract({ address: hook, abi, functionName, args } as never) as Promise<T>
  const [launchedAt, startFee, baseFee, decay] = await Promise.all([
    read<bigint>("launchedAt", [poolId]),
    read<number>("startFee"),
    read<number>("baseFee"),
    read<number>("decayPeriod")
  ])
  const elapsed = timestamp - launchedAt
  if (elapsed >= BigInt(decay)) return baseFee
  return Number(BigInt(startFee) - (BigInt(startFee - baseFee) * elapsed) / BigInt(decay))
}

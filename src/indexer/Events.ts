/**
 * The chain events the index is built from, decoded. Each carries where it happened (`LogPosition`):
 * block, time, transaction and log index, which is what ordering, rollback and 24 h windows need.
 */
import { toEventSelector } from "viem"
import type { Hex } from "../../schema/Chain.js"

export interface LogPosition {
  readonly block: number
  readonly time: number
  readonly tx: Hex
  readonly logIndex: number
}

interface At<Tag extends string> {
  readonly _tag: Tag
  readonly at: LogPosition
  /** The contract that emitted the log. */
  readonly emitter: Hex
}

export interface V2PairCreated extends At<"V2PairCreated"> {
  readonly token0: Hex
  readonly token1: Hex
  readonly pair: Hex
}
export interface V2Sync extends At<"V2Sync"> {
  readonly reserve0: bigint
  readonly reserve1: bigint
}
export interface V2Swap extends At<"V2Swap"> {
  readonly amount0: bigint
  readonly amount1: bigint
  readonly recipient: Hex
}
export interface V3PoolCreated extends At<"V3PoolCreated"> {
  readonly token0: Hex
  readonly token1: Hex
  readonly fee: number
  readonly tickSpacing: number
  readonly pool: Hex
}
export interface V3Initialize extends At<"V3Initialize"> {
  readonly sqrtPriceX96: bigint
  readonly tick: number
}
/** v3 Mint (positive) and Burn (negative) as one liquidity change. */
export interface V3Liquidity extends At<"V3Liquidity"> {
  readonly tickLower: number
  readonly tickUpper: number
  readonly delta: bigint
}
export interface V3Swap extends At<"V3Swap"> {
  readonly amount0: bigint
  readonly amount1: bigint
  readonly sqrtPriceX96: bigint
  readonly liquidity: bigint
  readonly tick: number
  readonly recipient: Hex
}
export interface V4Initialize extends At<"V4Initialize"> {
  readonly id: Hex
  readonly currency0: Hex
  readonly currency1: Hex
  readonly fee: number
  readonly tickSpacing: number
  readonly hooks: Hex
  readonly sqrtPriceX96: bigint
  readonly tick: number
}
export interface V4ModifyLiquidity extends At<"V4ModifyLiquidity"> {
  readonly id: Hex
  readonly tickLower: number
  readonly tickUpper: number
  readonly delta: bigint
}
export interface V4Swap extends At<"V4Swap"> {
  readonly id: Hex
  readonly sender: Hex
  readonly amount0: bigint
  readonly amount1: bigint
  readonly sqrtPriceX96: bigint
  readonly liquidity: bigint
  readonly tick: number
  readonly fee: number
}
export interface V4ProtocolFee extends At<"V4ProtocolFee"> {
  readonly id: Hex
  readonly protocolFee: number
}
export interface TokenCreated extends At<"TokenCreated"> {
  readonly token: Hex
  readonly creator: Hex
  readonly name: string
  readonly symbol: string
}
export interface CurveTrade extends At<"CurveTrade"> {
  readonly token: Hex
  readonly trader: Hex
  /** A buy moves USDC into the curve and tokens out; a sell the other way. */
  readonly isBuy: boolean
  readonly usdcAmount: bigint
  readonly tokenAmount: bigint
}
export interface Graduated extends At<"Graduated"> {
  readonly token: Hex
  readonly pool: Hex
}
export interface Transfer extends At<"Transfer"> {
  readonly from: Hex
  readonly to: Hex
  readonly value: bigint
}

export type ChainEvent =
  | V2PairCreated
  | V2Sync
  | V2Swap
  | V3PoolCreated
  | V3Initialize
  | V3Liquidity
  | V3Swap
  | V4Initialize
  | V4ModifyLiquidity
  | V4Swap
  | V4ProtocolFee
  | TokenCreated
  | CurveTrade
  | Graduated
  | Transfer

/** What every event carries beside its own fields: where it happened and which contract emitted it. */
export type EventHead = Omit<At<string>, "_tag">

/** topic0 of every event the index reads; the `eth_getLogs` filter asks for exactly these. */
export const topics = {
  PairCreated: toEventSelector("PairCreated(address,address,address,uint256)"),
  Sync: toEventSelector("Sync(uint112,uint112)"),
  V2Swap: toEventSelector("Swap(address,uint256,uint256,uint256,uint256,address)"),
  PoolCreated: toEventSelector("PoolCreated(address,address,uint24,int24,address)"),
  V3Initialize: toEventSelector("Initialize(uint160,int24)"),
  V3Mint: toEventSelector("Mint(address,address,int24,int24,uint128,uint256,uint256)"),
  V3Burn: toEventSelector("Burn(address,int24,int24,uint128,uint256,uint256)"),
  V3Swap: toEventSelector("Swap(address,address,int256,int256,uint160,uint128,int24)"),
  V4Initialize: toEventSelector("Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)"),
  ModifyLiquidity: toEventSelector("ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)"),
  V4Swap: toEventSelector("Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)"),
  ProtocolFeeUpdated: toEventSelector("ProtocolFeeUpdated(bytes32,uint24)"),
  TokenCreated: toEventSelector("TokenCreated(address,address,string,string,uint256)"),
  CurveTrade: toEventSelector("CurveTrade(address,address,bool,uint256,uint256)"),
  Graduated: toEventSelector("Graduated(address,address,uint256,uint256)"),
  Transfer: toEventSelector("Transfer(address,address,uint256)")
} as const

export const allTopics: ReadonlyArray<`0x${string}`> = Object.values(topics)

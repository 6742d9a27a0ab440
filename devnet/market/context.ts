/**
 * What the market steps share while seeding: the chain actions, the protocol addresses, the deployed
 * tokens by label, the pools created so far, and the approvals already given (so each is sent once).
 */
import { Effect } from "effect"
import { type Address, erc20Abi, type Hex, maxUint256, parseUnits } from "viem"
import type { Protocol } from "../protocol.js"
import type { Tx } from "../Tx.js"
import type { TokenSpec } from "./data/tokens.js"

export interface SeededToken {
  readonly address: Address
  readonly spec: TokenSpec
}

export type Venue = "v2" | "v3" | "v4"

export interface PoolKey {
  readonly currency0: Address
  readonly currency1: Address
  readonly fee: number
  readonly tickSpacing: number
  readonly hooks: Address
}

export interface SeededPool {
  /** e.g. `v3:WETH/USDC:500`, `v4:ZAP/USDC:dynamic:dynamicFeeHook` */
  readonly label: string
  /** Token labels as the spec names them: the traded token first, its quote second. */
  readonly pair: readonly [string, string]
  /** Seeded value in USD at spec prices (both sides). */
  readonly usd: number
  readonly venue: Venue
  /** Pair or pool contract address (v2, v3); the PoolManager for v4. */
  readonly address: Address
  /** v4 pool id (keccak of the key); the pool address otherwise. */
  readonly id: Hex
  readonly token0: Address
  readonly token1: Address
  /** hundredths of a bip; null when a hook sets it per swap. */
  readonly fee: number | null
  readonly tickSpacing: number | null
  readonly hooks: Address | null
  readonly key: PoolKey | null
}

export interface Market {
  readonly tx: Tx
  readonly protocol: Protocol
  readonly deployer: Address
  readonly treasury: Address
  readonly tokens: Map<string, SeededToken>
  readonly pools: Array<SeededPool>
  readonly approved: Set<string>
}

export const token = (market: Market, label: string): SeededToken => {
  const found = market.tokens.get(label)
  if (found === undefined) throw new Error(`market spec names an unknown token: ${label}`)
  return found
}

/** Whole-token amount (float) to base units; the float's noise sits far below any decimals used. */
export const units = (amount: number, decimals: number): bigint =>
  parseUnits(amount.toFixed(Math.min(decimals, 20)), decimals)

/** Base units of `label` worth `usd` at its spec price. */
export const usdWorth = (market: Market, label: string, usd: number): bigint => {
  const { spec } = token(market, label)
  return units(usd / spec.priceUsd, spec.decimals)
}

export const erc20 = (address: Address) => ({ address, abi: erc20Abi })

/** Unlimited approval from `owner` to `spender`, sent the first time it is needed. */
export const approve = (market: Market, owner: Address, tokenAddress: Address, spender: Address) => {
  const key = `${owner}:${tokenAddress}:${spender}`.toLowerCase()
  if (market.approved.has(key)) return Effect.void
  market.approved.add(key)
  return Effect.asVoid(market.tx.write(owner, erc20(tokenAddress), "approve", [spender, maxUint256]))
}

export const transfer = (market: Market, from: Address, tokenAddress: Address, to: Address, amount: bigint) =>
  Effect.asVoid(market.tx.write(from, erc20(tokenAddress), "transfer", [to, amount]))

/** Currencies sorted as every Uniswap version orders a pair. */
export const sortPair = (a: Address, b: Address): readonly [Address, Address] =>
  a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]

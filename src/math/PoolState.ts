/**
 * A pool's state as the swap math prices it and the indexer keeps it: reserves for v2, price, liquidity
 * and initialized ticks for v3 and v4. The indexer's `IndexState` holds these records by id.
 */
import type { Hex } from "../../schema/Chain.js"
import type { TickLiquidity } from "./ConcentratedSwap.js"

interface PoolBase {
  /** Pool address (v2, v3) or v4 pool id. */
  readonly id: Hex
  readonly venue: string
  readonly token0: Hex
  readonly token1: Hex
  readonly createdBlock: number
}

export interface V2Pool extends PoolBase {
  readonly kind: "v2"
  /** The pair's fee in hundredths of a bp: its venue's fixed fee, or (a "v2.5" fork) the pair's own,
   * read once when the indexer first saw the pair, since such forks fix it at creation. */
  readonly feePips: number
  readonly reserve0: bigint
  readonly reserve1: bigint
}

export interface TickRecord extends TickLiquidity {
  readonly liquidityGross: bigint
}

export interface ConcentratedPool extends PoolBase {
  readonly kind: "v3" | "v4"
  /** Lp fee in pips; for a dynamic-fee v4 pool the last fee a swap reported (0 before any). */
  readonly feePips: number
  readonly dynamicFee: boolean
  /** v4 protocol fee (12 bits per direction); v3's protocol fee is a share of the lp fee instead. */
  readonly protocolFee: number
  readonly tickSpacing: number
  /** v4 hooks contract, null without hooks (and for v3). */
  readonly hooks: Hex | null
  /** 0 until the pool is initialized. */
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  /** Initialized ticks, ascending. */
  readonly ticks: ReadonlyArray<TickRecord>
}

export type Pool = V2Pool | ConcentratedPool

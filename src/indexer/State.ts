/**
 * The indexed state of the chain at one block. Every collection is a persistent `HashMap` and every
 * record is immutable: applying a block yields a new state that shares all untouched parts with the
 * previous one. A reader holding a state holds a consistent view of one block, rolling back a reorg is
 * picking an older state, and keeping the last 64 states costs only what changed in them.
 */
import { HashMap } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { Pool } from "../math/PoolState.js"
import type { Chunks } from "./Chunks.js"
import { emptyLog, type TouchLog } from "./Touched.js"

/** Where the applied range ends: its last block, even when that block had no events. */
export interface BlockRef {
  readonly number: number
  readonly hash: Hex | null
  readonly time: number
}

/** A pool of a token, with the token on its other side: enough to choose pools without reading them. */
export interface PoolRef {
  readonly id: Hex
  readonly other: Hex
}

export interface TokenFacts {
  readonly address: Hex
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  /** False when symbol, name or decimals could not be read; the values are then placeholders. */
  readonly metadataOk: boolean
  /** Order in which the index learned of the token; derived indexes extend themselves by it. */
  readonly seq: number
  /** Earliest sighting: its first transfer (a constructor mint, normally), else its launch or pool. */
  readonly createdBlock: number
  readonly createdTime: number
  readonly createdLog: number
  readonly creator: Hex | null
  readonly launchpad: string | null
  readonly graduated: boolean
  /**
   * Net flows through its launchpad curve since launch (null when not launched here): with the
   * launchpad's constants they give the curve's reserves without a chain read. Stops moving at graduation.
   */
  readonly curve: CurveFlows | null
  /** Its pools, in order of creation. */
  readonly pools: ReadonlyArray<PoolRef>
}

export interface CurveFlows {
  /** USDC the curve has raised: bought in less paid out to sellers. */
  readonly usdcIn: bigint
  /** Tokens the curve has sold: bought out less sold back. */
  readonly tokensOut: bigint
}

export interface Holdings {
  readonly balances: HashMap.HashMap<Hex, bigint>
  /** Addresses with a non-zero balance. */
  readonly holders: number
  /** The first transfer seen was a mint, so no balance predates the index: `holders` is exact. */
  readonly complete: boolean
  readonly firstBlock: number
  readonly firstTime: number
  readonly firstLog: number
  /** Transaction of the first mint: its sender is the token's creator for non-launchpad tokens. */
  readonly firstMintTx: Hex | null
}

export interface Trade {
  readonly time: number
  /** Amount of the token traded, in base units. */
  readonly amount: bigint
  /** USD value in micro-dollars when the other side was USDC; otherwise valued at the current price. */
  readonly usdMicro: bigint | null
  readonly trader: Hex
}

export interface IndexState {
  /** Last applied block; `startBlock - 1` before any. */
  readonly block: number
  readonly hash: Hex | null
  readonly time: number
  readonly pools: HashMap.HashMap<Hex, Pool>
  readonly tokens: HashMap.HashMap<Hex, TokenFacts>
  readonly holdings: HashMap.HashMap<Hex, Holdings>
  /**
   * Trades of the last 24 h, oldest first, in chunks (./Chunks.ts: a block's trades do not copy a hub's
   * day of them). Older ones are dropped a chunk at a time as new ones arrive, and ignored when read.
   */
  readonly trades: HashMap.HashMap<Hex, Chunks<Trade>>
  readonly nextSeq: number
  /** The pools each recent step touched (./Touched.ts): what changed since an earlier state, without a walk. */
  readonly touched: TouchLog
}

export const emptyState = (startBlock: number): IndexState => ({
  block: startBlock - 1,
  hash: null,
  time: 0,
  pools: HashMap.empty(),
  tokens: HashMap.empty(),
  holdings: HashMap.empty(),
  trades: HashMap.empty(),
  nextSeq: 0,
  touched: emptyLog()
})

export const DAY_SEC = 86_400

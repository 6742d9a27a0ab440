/**
 * `IndexState` ↔ a plain structure that `node:v8` serializes (it handles bigint natively, JSON does
 * not). Persistent maps become arrays; balances become two parallel arrays, the bulk of a checkpoint.
 */
import { HashMap } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { Pool } from "../math/PoolState.js"
import { fromItems } from "./Chunks.js"
import { DAY_SEC, type Holdings, type IndexState, type TokenFacts, type Trade } from "./State.js"
import { emptyLog } from "./Touched.js"

/** Bump when the shape of the state changes: an older checkpoint is then ignored and the index rebuilt. */
export const CODEC_VERSION = 4

interface StoredHoldings extends Omit<Holdings, "balances"> {
  readonly holdersOf: ReadonlyArray<Hex>
  readonly amounts: ReadonlyArray<bigint>
}

export interface StoredState {
  readonly version: number
  readonly fingerprint: string
  readonly block: number
  readonly hash: Hex | null
  readonly time: number
  readonly nextSeq: number
  readonly pools: ReadonlyArray<Pool>
  readonly tokens: ReadonlyArray<TokenFacts>
  readonly holdings: ReadonlyArray<readonly [Hex, StoredHoldings]>
  readonly trades: ReadonlyArray<readonly [Hex, ReadonlyArray<Trade>]>
}

export const toStored = (state: IndexState, fingerprint: string): StoredState => ({
  version: CODEC_VERSION,
  fingerprint,
  block: state.block,
  hash: state.hash,
  time: state.time,
  nextSeq: state.nextSeq,
  pools: [...HashMap.values(state.pools)],
  tokens: [...HashMap.values(state.tokens)],
  holdings: [...state.holdings].map(([token, { balances, ...rest }]) => [token, {
    ...rest,
    holdersOf: [...HashMap.keys(balances)],
    amounts: [...HashMap.values(balances)]
  }]),
  // Trades past the 24 h are left out: in memory they go a chunk at a time (./Chunks.ts).
  trades: [...state.trades].map(([token, chunks]) => [
    token,
    chunks.flat().filter((trade) => trade.time >= state.time - DAY_SEC)
  ])
})

export const fromStored = (stored: StoredState): IndexState => ({
  block: stored.block,
  hash: stored.hash,
  time: stored.time,
  nextSeq: stored.nextSeq,
  // Not stored: a loaded state starts a line of its own.
  touched: emptyLog(),
  pools: HashMap.fromIterable(stored.pools.map((pool) => [pool.id, pool] as const)),
  tokens: HashMap.fromIterable(stored.tokens.map((token) => [token.address, token] as const)),
  holdings: HashMap.fromIterable(
    stored.holdings.map(([token, { amounts, holdersOf, ...rest }]) =>
      [token, {
        ...rest,
        balances: HashMap.fromIterable(holdersOf.map((holder, i) => [holder, amounts[i]!] as const))
      }] as const
    )
  ),
  trades: HashMap.fromIterable(stored.trades.map(([token, trades]) => [token, fromItems(trades)] as const))
})

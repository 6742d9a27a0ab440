/**
 * `IndexState` ↔ parts that `node:v8` serializes one at a time (it handles bigint natively, JSON does
 * not): a header, then slices of each collection. The parts are made lazily, a slice per step, so that
 * the checkpoint writer can give the event loop back between slices: at 20,000 pools the whole state
 * took 0.5–3 s of CPU in one stretch to convert and serialize, a pause every answer waited behind.
 * Persistent maps become arrays; balances become two parallel arrays, the bulk of a checkpoint.
 */
import { HashMap } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { Pool } from "../math/PoolState.js"
import { fromItems } from "./Chunks.js"
import { DAY_SEC, type Holdings, type IndexState, type TokenFacts, type Trade } from "./State.js"
import { emptyLog } from "./Touched.js"

/** Bump when the shape of the state changes: an older checkpoint is then ignored and the index rebuilt. */
export const CODEC_VERSION = 5

/**
 * Roughly how many records (a pool, a token, a holder's balance, a trade, a tick) go in one slice: a few
 * milliseconds of converting and serializing on a loaded core.
 */
const SLICE_WEIGHT = 1_024

export interface StoredHeader {
  readonly version: number
  readonly fingerprint: string
  readonly block: number
  readonly hash: Hex | null
  readonly time: number
  readonly nextSeq: number
}

export interface StoredHoldings extends Omit<Holdings, "balances"> {
  readonly holdersOf: ReadonlyArray<Hex>
  readonly amounts: ReadonlyArray<bigint>
}

export type StoredSlice =
  | { readonly section: "pools"; readonly items: ReadonlyArray<Pool> }
  | { readonly section: "tokens"; readonly items: ReadonlyArray<TokenFacts> }
  | { readonly section: "holdings"; readonly items: ReadonlyArray<readonly [Hex, StoredHoldings]> }
  | { readonly section: "trades"; readonly items: ReadonlyArray<readonly [Hex, ReadonlyArray<Trade>]> }

/** `items` converted by `convert`, in slices of about `budget` by `weight`; an item heavier than that is a slice alone. */
function* sliced<A, B>(
  items: Iterable<A>,
  convert: (item: A) => B,
  weight: (stored: B) => number,
  budget: number
): Generator<ReadonlyArray<B>> {
  let slice: Array<B> = []
  let filled = 0
  for (const item of items) {
    const stored = convert(item)
    slice.push(stored)
    filled += 1 + weight(stored)
    if (filled >= budget) {
      yield slice
      slice = []
      filled = 0
    }
  }
  if (slice.length > 0) yield slice
}

const storedHoldings = ([token, { balances, ...rest }]: readonly [Hex, Holdings]) =>
  [token, { ...rest, holdersOf: [...HashMap.keys(balances)], amounts: [...HashMap.values(balances)] }] as const

/**
 * The header, then the pools, tokens, holdings and trades in slices, each made when asked for. `state`
 * is immutable, so the parts describe one block however long the writer takes between them.
 */
export function* storedParts(
  state: IndexState,
  fingerprint: string,
  budget = SLICE_WEIGHT
): Generator<StoredHeader | StoredSlice> {
  yield {
    version: CODEC_VERSION,
    fingerprint,
    block: state.block,
    hash: state.hash,
    time: state.time,
    nextSeq: state.nextSeq
  }
  const same = <A>(item: A) => item
  for (
    const items of sliced(
      HashMap.values(state.pools),
      same,
      (pool) => pool.kind === "v2" ? 0 : pool.ticks.length,
      budget
    )
  ) {
    yield { section: "pools", items }
  }
  for (const items of sliced(HashMap.values(state.tokens), same, (token) => token.pools.length, budget)) {
    yield { section: "tokens", items }
  }
  for (const items of sliced(state.holdings, storedHoldings, ([, stored]) => stored.holdersOf.length, budget)) {
    yield { section: "holdings", items }
  }
  // Trades past the 24 h are left out: in memory they go a chunk at a time (./Chunks.ts).
  const recentTrades = ([token, chunks]: readonly [Hex, ReadonlyArray<ReadonlyArray<Trade>>]) =>
    [token, chunks.flat().filter((trade) => trade.time >= state.time - DAY_SEC)] as const
  for (const items of sliced(state.trades, recentTrades, ([, trades]) => trades.length, budget)) {
    yield { section: "trades", items }
  }
}

/** The state a header (checked by the caller) and its slices describe. */
export const fromParts = (header: StoredHeader, slices: Iterable<StoredSlice>): IndexState => {
  const pools = HashMap.beginMutation(HashMap.empty<Hex, Pool>())
  const tokens = HashMap.beginMutation(HashMap.empty<Hex, TokenFacts>())
  const holdings = HashMap.beginMutation(HashMap.empty<Hex, Holdings>())
  const trades = HashMap.beginMutation(HashMap.empty<Hex, ReadonlyArray<ReadonlyArray<Trade>>>())
  for (const slice of slices) {
    switch (slice.section) {
      case "pools":
        for (const pool of slice.items) HashMap.set(pools, pool.id, pool)
        break
      case "tokens":
        for (const token of slice.items) HashMap.set(tokens, token.address, token)
        break
      case "holdings":
        for (const [token, { amounts, holdersOf, ...rest }] of slice.items) {
          const balances = HashMap.fromIterable(holdersOf.map((holder, i) => [holder, amounts[i]!] as const))
          HashMap.set(holdings, token, { ...rest, balances })
        }
        break
      case "trades":
        for (const [token, list] of slice.items) HashMap.set(trades, token, fromItems(list))
        break
    }
  }
  return {
    block: header.block,
    hash: header.hash,
    time: header.time,
    nextSeq: header.nextSeq,
    // Not stored: a loaded state starts a line of its own.
    touched: emptyLog(),
    pools: HashMap.endMutation(pools),
    tokens: HashMap.endMutation(tokens),
    holdings: HashMap.endMutation(holdings),
    trades: HashMap.endMutation(trades)
  }
}

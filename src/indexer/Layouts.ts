/**
 * The layout of every event the index reads: the topics and data words its log has, the contracts it
 * is read from, and which word is which field. Sliced by hand (`LogWords.ts`), one entry per event kind,
 * so each word offset can be read against the signatures in `Events.ts`.
 */
import { lowerHex } from "../../schema/Chain.js"
import type { ChainEvent, EventHead } from "./Events.js"
import { topics } from "./Events.js"
import { address, decodeTokenCreated, int, topicWord, uint, word } from "./LogWords.js"

/** How one event is read; a log that does not fit it is another contract's and decodes to nothing. */
export interface Layout {
  /** Topics it needs at least, topic0 included. */
  readonly topics: number
  /** Its data words; any number when absent (a dynamic layout checks its own). */
  readonly words?: number
  /** The contracts it is read from (factories, pool managers, launchpads); any contract when absent. */
  readonly from?: "v2Factories" | "v3Factories" | "v4Managers" | "launchpads"
  readonly read: (topics: ReadonlyArray<`0x${string}`>, data: `0x${string}`, head: EventHead) => ChainEvent | undefined
}

/** The words v3's and v4's `Swap` share: the amounts, then price, liquidity and tick after the swap. */
const swapWords = (data: string) => ({
  amount0: int(word(data, 0)),
  amount1: int(word(data, 1)),
  sqrtPriceX96: uint(word(data, 2)),
  liquidity: uint(word(data, 3)),
  tick: Number(int(word(data, 4)))
})

/** v3 `Mint` and `Burn`: the range in topics 2 and 3. */
const v3Liquidity = (t: ReadonlyArray<`0x${string}`>, delta: bigint, head: EventHead): ChainEvent => ({
  _tag: "V3Liquidity",
  ...head,
  tickLower: Number(int(topicWord(t[2]!))),
  tickUpper: Number(int(topicWord(t[3]!))),
  delta
})

export const layouts = new Map<string, Layout>([
  [topics.Transfer, {
    topics: 3,
    words: 1,
    // ERC-721 uses the same topic with the token id indexed: four topics, no data.
    read: (t, data, head) =>
      t.length !== 3
        ? undefined
        : { _tag: "Transfer", ...head, from: address(t[1]!), to: address(t[2]!), value: uint(word(data, 0)) }
  }],
  [topics.Sync, {
    topics: 1,
    words: 2,
    read: (_, data, head) => ({ _tag: "V2Sync", ...head, reserve0: uint(word(data, 0)), reserve1: uint(word(data, 1)) })
  }],
  [topics.V2Swap, {
    topics: 3,
    words: 4,
    read: (t, data, head) => ({
      _tag: "V2Swap",
      ...head,
      amount0: uint(word(data, 0)) + uint(word(data, 2)),
      amount1: uint(word(data, 1)) + uint(word(data, 3)),
      recipient: address(t[2]!)
    })
  }],
  [topics.V3Swap, {
    topics: 3,
    words: 5,
    read: (t, data, head) => ({ _tag: "V3Swap", ...head, ...swapWords(data), recipient: address(t[2]!) })
  }],
  [topics.V3Mint, { topics: 4, words: 4, read: (t, data, head) => v3Liquidity(t, uint(word(data, 1)), head) }],
  [topics.V3Burn, { topics: 4, words: 3, read: (t, data, head) => v3Liquidity(t, -uint(word(data, 0)), head) }],
  [topics.V3Initialize, {
    topics: 1,
    words: 2,
    read: (_, data, head) => ({
      _tag: "V3Initialize",
      ...head,
      sqrtPriceX96: uint(word(data, 0)),
      tick: Number(int(word(data, 1)))
    })
  }],
  [topics.PairCreated, {
    topics: 3,
    words: 2,
    from: "v2Factories",
    read: (t, data, head) => ({
      _tag: "V2PairCreated",
      ...head,
      token0: address(t[1]!),
      token1: address(t[2]!),
      pair: address(word(data, 0))
    })
  }],
  [topics.PoolCreated, {
    topics: 4,
    words: 2,
    from: "v3Factories",
    read: (t, data, head) => ({
      _tag: "V3PoolCreated",
      ...head,
      token0: address(t[1]!),
      token1: address(t[2]!),
      fee: Number(uint(topicWord(t[3]!))),
      tickSpacing: Number(int(word(data, 0))),
      pool: address(word(data, 1))
    })
  }],
  [topics.V4Initialize, {
    topics: 4,
    words: 5,
    from: "v4Managers",
    read: (t, data, head) => ({
      _tag: "V4Initialize",
      ...head,
      id: lowerHex(t[1]!),
      currency0: address(t[2]!),
      currency1: address(t[3]!),
      fee: Number(uint(word(data, 0))),
      tickSpacing: Number(int(word(data, 1))),
      hooks: address(word(data, 2)),
      sqrtPriceX96: uint(word(data, 3)),
      tick: Number(int(word(data, 4)))
    })
  }],
  [topics.ModifyLiquidity, {
    topics: 2,
    words: 4,
    from: "v4Managers",
    read: (t, data, head) => ({
      _tag: "V4ModifyLiquidity",
      ...head,
      id: lowerHex(t[1]!),
      tickLower: Number(int(word(data, 0))),
      tickUpper: Number(int(word(data, 1))),
      delta: int(word(data, 2))
    })
  }],
  [topics.V4Swap, {
    topics: 3,
    words: 6,
    from: "v4Managers",
    read: (t, data, head) => ({
      _tag: "V4Swap",
      ...head,
      id: lowerHex(t[1]!),
      sender: address(t[2]!),
      ...swapWords(data),
      fee: Number(uint(word(data, 5)))
    })
  }],
  [topics.ProtocolFeeUpdated, {
    topics: 2,
    words: 1,
    from: "v4Managers",
    read: (t, data, head) => ({
      _tag: "V4ProtocolFee",
      ...head,
      id: lowerHex(t[1]!),
      protocolFee: Number(uint(word(data, 0)))
    })
  }],
  [topics.TokenCreated, {
    topics: 3,
    from: "launchpads",
    read: (t, data, head) => decodeTokenCreated(data, t[1]!, t[2]!, head)
  }],
  [topics.CurveTrade, {
    topics: 3,
    words: 3,
    from: "launchpads",
    read: (t, data, head) => ({
      _tag: "CurveTrade",
      ...head,
      token: address(t[1]!),
      trader: address(t[2]!),
      isBuy: uint(word(data, 0)) !== 0n,
      usdcAmount: uint(word(data, 1)),
      tokenAmount: uint(word(data, 2))
    })
  }],
  [topics.Graduated, {
    topics: 3,
    from: "launchpads",
    read: (t, _, head) => ({ _tag: "Graduated", ...head, token: address(t[1]!), pool: address(t[2]!) })
  }]
])

/**
 * Raw `eth_getLogs` entries → `ChainEvent`s. The layouts are fixed, so the words are sliced by hand
 * (`LogWords.ts`): this is the hot loop of a catch-up and a generic ABI decoder costs several times
 * more per log. Logs with an unexpected shape (another contract reusing a topic) decode to nothing.
 * One case per event kind, so each word offset can be read against the layouts in `Events.ts`.
 */
import type { Hex } from "../../schema/Chain.js"
import type { ChainEvent, LogPosition } from "./Events.js"
import { topics } from "./Events.js"
import { address, decodeTokenCreated, int, positionOf, type RawLog, topicWord, uint, word, words } from "./LogWords.js"
import type { Sources } from "./Sources.js"

export type { RawLog } from "./LogWords.js"

/** Uniswap's Swap fields, which a fork's Swap event begins with (it may append its own). */
const v3Swap = (at: LogPosition, emitter: Hex, data: Hex, recipient: Hex): ChainEvent => ({
  _tag: "V3Swap",
  at,
  emitter,
  amount0: int(word(data, 0)),
  amount1: int(word(data, 1)),
  sqrtPriceX96: uint(word(data, 2)),
  liquidity: uint(word(data, 3)),
  tick: Number(int(word(data, 4))),
  recipient: address(recipient)
})

export const decodeLog = (log: RawLog, sources: Sources, time: number): ChainEvent | undefined => {
  const [topic0, topic1, topic2, topic3] = log.topics
  const emitter = log.address.toLowerCase()
  const data = log.data
  const at = positionOf(log, time)
  const n = words(data)
  switch (topic0) {
    case topics.Transfer:
      // ERC-721 uses the same topic with the token id indexed: four topics, no data.
      if (log.topics.length !== 3 || n !== 1) return undefined
      return {
        _tag: "Transfer",
        at,
        emitter,
        from: address(topic1!),
        to: address(topic2!),
        value: uint(word(data, 0))
      }
    case topics.Sync:
      if (n !== 2) return undefined
      return { _tag: "V2Sync", at, emitter, reserve0: uint(word(data, 0)), reserve1: uint(word(data, 1)) }
    case topics.V2Swap:
      if (n !== 4 || topic2 === undefined) return undefined
      return {
        _tag: "V2Swap",
        at,
        emitter,
        amount0: uint(word(data, 0)) + uint(word(data, 2)),
        amount1: uint(word(data, 1)) + uint(word(data, 3)),
        recipient: address(topic2)
      }
    case topics.V3Swap:
      return n === 5 && topic2 !== undefined ? v3Swap(at, emitter, data, topic2) : undefined
    case topics.V3Mint:
      if (n !== 4 || topic3 === undefined) return undefined
      return {
        _tag: "V3Liquidity",
        at,
        emitter,
        tickLower: Number(int(topicWord(topic2!))),
        tickUpper: Number(int(topicWord(topic3))),
        delta: uint(word(data, 1))
      }
    case topics.V3Burn:
      if (n !== 3 || topic3 === undefined) return undefined
      return {
        _tag: "V3Liquidity",
        at,
        emitter,
        tickLower: Number(int(topicWord(topic2!))),
        tickUpper: Number(int(topicWord(topic3))),
        delta: -uint(word(data, 0))
      }
    case topics.V3Initialize:
      if (n !== 2) return undefined
      return { _tag: "V3Initialize", at, emitter, sqrtPriceX96: uint(word(data, 0)), tick: Number(int(word(data, 1))) }
    case topics.PairCreated:
      if (!sources.v2Factories.has(emitter) || n !== 2 || topic2 === undefined) return undefined
      return {
        _tag: "V2PairCreated",
        at,
        emitter,
        token0: address(topic1!),
        token1: address(topic2),
        pair: address(word(data, 0))
      }
    case topics.PoolCreated:
      if (!sources.v3Factories.has(emitter) || n !== 2 || topic3 === undefined) return undefined
      return {
        _tag: "V3PoolCreated",
        at,
        emitter,
        token0: address(topic1!),
        token1: address(topic2!),
        fee: Number(uint(topicWord(topic3))),
        tickSpacing: Number(int(word(data, 0))),
        pool: address(word(data, 1))
      }
    case topics.V4Initialize:
      if (!sources.v4Managers.has(emitter) || n !== 5 || topic3 === undefined) return undefined
      return {
        _tag: "V4Initialize",
        at,
        emitter,
        id: topic1!.toLowerCase(),
        currency0: address(topic2!),
        currency1: address(topic3),
        fee: Number(uint(word(data, 0))),
        tickSpacing: Number(int(word(data, 1))),
        hooks: address(word(data, 2)),
        sqrtPriceX96: uint(word(data, 3)),
        tick: Number(int(word(data, 4)))
      }
    case topics.ModifyLiquidity:
      if (!sources.v4Managers.has(emitter) || n !== 4 || topic1 === undefined) return undefined
      return {
        _tag: "V4ModifyLiquidity",
        at,
        emitter,
        id: topic1.toLowerCase(),
        tickLower: Number(int(word(data, 0))),
        tickUpper: Number(int(word(data, 1))),
        delta: int(word(data, 2))
      }
    case topics.V4Swap:
      if (!sources.v4Managers.has(emitter) || n !== 6 || topic2 === undefined) return undefined
      return {
        _tag: "V4Swap",
        at,
        emitter,
        id: topic1!.toLowerCase(),
        sender: address(topic2),
        amount0: int(word(data, 0)),
        amount1: int(word(data, 1)),
        sqrtPriceX96: uint(word(data, 2)),
        liquidity: uint(word(data, 3)),
        tick: Number(int(word(data, 4))),
        fee: Number(uint(word(data, 5)))
      }
    case topics.ProtocolFeeUpdated:
      if (!sources.v4Managers.has(emitter) || n !== 1 || topic1 === undefined) return undefined
      return { _tag: "V4ProtocolFee", at, emitter, id: topic1.toLowerCase(), protocolFee: Number(uint(word(data, 0))) }
    case topics.TokenCreated:
      if (!sources.launchpads.has(emitter) || topic2 === undefined) return undefined
      return decodeTokenCreated(log, at, emitter, topic1!, topic2)
    case topics.CurveTrade:
      if (!sources.launchpads.has(emitter) || n !== 3 || topic2 === undefined) return undefined
      return {
        _tag: "CurveTrade",
        at,
        emitter,
        token: address(topic1!),
        trader: address(topic2),
        isBuy: uint(word(data, 0)) !== 0n,
        usdcAmount: uint(word(data, 1)),
        tokenAmount: uint(word(data, 2))
      }
    case topics.Graduated:
      if (!sources.launchpads.has(emitter) || topic2 === undefined) return undefined
      return { _tag: "Graduated", at, emitter, token: address(topic1!), pool: address(topic2) }
    default: {
      // A v3 fork's own Swap event, named in its venue entry.
      const words = topic0 === undefined ? undefined : sources.forkV3Swaps.get(topic0)
      return words !== undefined && n === words && topic2 !== undefined ? v3Swap(at, emitter, data, topic2) : undefined
    }
  }
}

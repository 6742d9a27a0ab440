/**
 * The word-slicing primitives the log decoder (`Decode.ts`) reads fixed event layouts with, and the one
 * event whose data is dynamic (`TokenCreated`) decoded by viem.
 */
import { Schema } from "effect"
import { decodeAbiParameters } from "viem"
import type { Hex } from "../../schema/Chain.js"
import type { ChainEvent, LogPosition } from "./Events.js"

/** A log as the JSON-RPC answers it. */
export const RawLog = Schema.Struct({
  address: Schema.String,
  topics: Schema.Array(Schema.String),
  data: Schema.String,
  blockNumber: Schema.String,
  blockHash: Schema.String,
  blockTimestamp: Schema.optional(Schema.String),
  transactionHash: Schema.String,
  logIndex: Schema.String
})
export type RawLog = typeof RawLog.Type

const TWO_255 = 1n << 255n
const TWO_256 = 1n << 256n

export const word = (data: string, index: number): string => data.slice(2 + index * 64, 2 + (index + 1) * 64)
export const uint = (hex: string): bigint => BigInt(`0x${hex}`)
export const int = (hex: string): bigint => {
  const value = uint(hex)
  return value >= TWO_255 ? value - TWO_256 : value
}
export const address = (hex: string): Hex => `0x${hex.slice(-40)}`.toLowerCase()
export const topicWord = (topic: string): string => topic.slice(2)
export const words = (data: string): number => (data.length - 2) / 64

export const positionOf = (log: RawLog, time: number): LogPosition => ({
  block: Number(log.blockNumber),
  time,
  tx: log.transactionHash.toLowerCase(),
  logIndex: Number(log.logIndex)
})

const tokenCreatedData = [{ type: "string" }, { type: "string" }, { type: "uint256" }] as const

/** A launchpad's `TokenCreated`: name and symbol are dynamic strings, the one layout sliced by viem. */
export const decodeTokenCreated = (
  log: RawLog,
  at: LogPosition,
  emitter: Hex,
  tokenTopic: string,
  creatorTopic: string
): ChainEvent | undefined => {
  try {
    const [name, symbol] = decodeAbiParameters(tokenCreatedData, log.data as `0x${string}`)
    return {
      _tag: "TokenCreated",
      at,
      emitter,
      token: address(tokenTopic),
      creator: address(creatorTopic),
      name,
      symbol
    }
  } catch {
    return undefined
  }
}

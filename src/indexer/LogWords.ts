/**
 * The word-slicing primitives the log decoder (`Decode.ts`) reads fixed event layouts with, and the one
 * event whose data is dynamic (`TokenCreated`) decoded by viem.
 */
import { Schema } from "effect"
import { decodeAbiParameters } from "viem"
import { type Address, lowerAddress, lowerHex } from "../../schema/Chain.js"
import type { ChainEvent, EventHead, LogPosition } from "./Events.js"

/** A log as the JSON-RPC answers it. */
export interface RawLog {
  readonly address: `0x${string}`
  readonly topics: ReadonlyArray<`0x${string}`>
  readonly data: `0x${string}`
  readonly blockNumber: `0x${string}`
  readonly blockHash: `0x${string}`
  readonly blockTimestamp?: string
  readonly transactionHash: `0x${string}`
  readonly logIndex: `0x${string}`
}

const isHexText = (value: unknown) => typeof value === "string" && value.startsWith("0x")
const isHexTexts = (value: unknown) => Array.isArray(value) && value.every(isHexText)
const hexTexts = ["address", "data", "blockNumber", "blockHash", "transactionHash", "logIndex"] as const

/**
 * `RawLog` checked by hand rather than by `Schema.Struct`: a catch-up decodes millions of logs, and a
 * struct decode (about 6 µs a log) would cost more than slicing the log itself.
 */
export const RawLog = Schema.declare(
  (log: unknown): log is RawLog =>
    typeof log === "object" && log !== null && hexTexts.every((key) => isHexText(Reflect.get(log, key))) &&
    isHexTexts(Reflect.get(log, "topics")),
  { identifier: "RawLog", description: "an eth_getLogs entry" }
)

const TWO_255 = 1n << 255n
const TWO_256 = 1n << 256n

export const word = (data: string, index: number): string => data.slice(2 + index * 64, 2 + (index + 1) * 64)
export const uint = (hex: string): bigint => BigInt(`0x${hex}`)
export const int = (hex: string): bigint => {
  const value = uint(hex)
  return value >= TWO_255 ? value - TWO_256 : value
}
export const address = (hex: string): Address => lowerAddress(`0x${hex.slice(-40)}`)
export const topicWord = (topic: string): string => topic.slice(2)
export const words = (data: string): number => (data.length - 2) / 64

export const positionOf = (log: RawLog, time: number): LogPosition => ({
  block: Number(log.blockNumber),
  time,
  tx: lowerHex(log.transactionHash),
  logIndex: Number(log.logIndex)
})

const tokenCreatedData = [{ type: "string" }, { type: "string" }, { type: "uint256" }] as const

/** A launchpad's `TokenCreated`: name and symbol are dynamic strings, the one layout sliced by viem. */
export const decodeTokenCreated = (
  data: `0x${string}`,
  tokenTopic: string,
  creatorTopic: string,
  head: EventHead
): ChainEvent | undefined => {
  try {
    const [name, symbol] = decodeAbiParameters(tokenCreatedData, data)
    return { _tag: "TokenCreated", ...head, token: address(tokenTopic), creator: address(creatorTopic), name, symbol }
  } catch {
    return undefined
  }
}

/**
 * The word-slicing primitives the log decoder (`Decode.ts`) reads fixed event layouts with, and the one
 * event whose data is dynamic (`TokenCreated`) decoded by viem.
 */
import { Schema } from "effect"
import { decodeAbiParameters } from "viem"
import type { Hex } from "../../schema/Chain.js"
import type { ChainEvent, EventHead, LogPosition } from "./Events.js"

/** A log as the JSON-RPC answers it. */
export interface RawLog {
  readonly address: string
  readonly topics: ReadonlyArray<string>
  readonly data: string
  readonly blockNumber: string
  readonly blockHash: string
  readonly blockTimestamp?: string
  readonly transactionHash: string
  readonly logIndex: string
}

const isStrings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string")
const strings = ["address", "data", "blockNumber", "blockHash", "transactionHash", "logIndex"] as const

/**
 * `RawLog` checked by hand rather than by `Schema.Struct`: a catch-up decodes millions of logs, and a
 * struct decode (about 6 µs a log) would cost more than slicing the log itself.
 */
export const RawLog = Schema.declare(
  (log: unknown): log is RawLog =>
    typeof log === "object" && log !== null && strings.every((key) => typeof Reflect.get(log, key) === "string") &&
    isStrings(Reflect.get(log, "topics")),
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
  data: string,
  tokenTopic: string,
  creatorTopic: string,
  head: EventHead
): ChainEvent | undefined => {
  try {
    const [name, symbol] = decodeAbiParameters(tokenCreatedData, data as `0x${string}`)
    return { _tag: "TokenCreated", ...head, token: address(tokenTopic), creator: address(creatorTopic), name, symbol }
  } catch {
    return undefined
  }
}

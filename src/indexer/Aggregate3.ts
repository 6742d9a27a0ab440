/**
 * Multicall3's `aggregate3` call data and answer, for calls that are each a bare 4-byte selector
 * (./MetadataBatch.ts: `symbol`, `name`, `decimals`), written and read word by word. viem's generic ABI
 * coder took longer than the node did: a 20,000-token catch-up encodes and decodes 60,000 calls, and the
 * generic coder spent about a second and a half of CPU on each side. The layout is fixed, so the words
 * are placed and read by offset; `test/indexer/aggregate3.test.ts` holds it to viem's encoding.
 */
import type { Hex } from "../../schema/Chain.js"

/** `aggregate3((address,bool,bytes)[])`. */
const SELECTOR = "82ad56cb"
/** A call's tuple: target, allowFailure, the offset of its bytes, their length, one word of data. */
const CALL_WORDS = 5

const word = (value: number): string => value.toString(16).padStart(64, "0")

export interface Call {
  readonly target: Hex
  /** `0x` and four bytes. */
  readonly selector: `0x${string}`
}

/** Call data of `aggregate3` with every call allowed to fail. */
export const encodeAggregate3 = (calls: ReadonlyArray<Call>): `0x${string}` => {
  const parts = [SELECTOR, word(0x20), word(calls.length)]
  for (let i = 0; i < calls.length; i++) parts.push(word(32 * calls.length + 32 * CALL_WORDS * i))
  const allowFailure = word(1)
  const bytesAt = word(0x60)
  const length = word(4)
  for (const call of calls) {
    parts.push(
      call.target.slice(2).padStart(64, "0"),
      allowFailure,
      bytesAt,
      length,
      call.selector.slice(2).padEnd(64, "0")
    )
  }
  return `0x${parts.join("")}`
}

export interface Result {
  readonly success: boolean
  readonly returnData: `0x${string}`
}

/** The results of `aggregate3`'s answer, or undefined when it is not one (out of bounds, a wrong shape). */
export const decodeAggregate3 = (answer: string): ReadonlyArray<Result> | undefined => {
  const size = (answer.length - 2) / 2
  if (!answer.startsWith("0x") || !Number.isInteger(size)) return undefined
  /** The word at byte `at` as a number, when it is one that can be an offset or a length here. */
  const number = (at: number): number | undefined => {
    if (!Number.isSafeInteger(at) || at < 0 || at + 32 > size) return undefined
    const value = Number.parseInt(answer.slice(2 + 2 * at, 66 + 2 * at), 16)
    return Number.isSafeInteger(value) && value <= size ? value : undefined
  }
  const array = number(0)
  const count = array === undefined ? undefined : number(array)
  if (array === undefined || count === undefined) return undefined
  const items = array + 32
  const results: Array<Result> = []
  for (let i = 0; i < count; i++) {
    const offset = number(items + 32 * i)
    if (offset === undefined) return undefined
    const tuple = items + offset
    const flag = number(tuple)
    const bytes = number(tuple + 32)
    const length = bytes === undefined ? undefined : number(tuple + bytes)
    if (flag === undefined || flag > 1 || bytes === undefined || length === undefined) return undefined
    const start = tuple + bytes + 32
    if (start + length > size) return undefined
    results.push({ success: flag === 1, returnData: `0x${answer.slice(2 + 2 * start, 2 + 2 * (start + length))}` })
  }
  return results
}

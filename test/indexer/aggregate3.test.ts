/**
 * Multicall3's `aggregate3` written and read word by word (src/indexer/Aggregate3.ts) against viem's
 * generic ABI coder: the same call data, the same results, and nothing read from an answer that is not one.
 */
import { encodeFunctionData, encodeFunctionResult, multicall3Abi, stringToHex } from "viem"
import { describe, expect, it } from "vitest"
import { lowerAddress } from "../../schema/Chain.js"
import { decodeAggregate3, encodeAggregate3 } from "../../src/indexer/Aggregate3.js"
import { selectors } from "../../src/indexer/Metadata.js"

const tokens = [
  lowerAddress("0x3600000000000000000000000000000000000000"),
  lowerAddress("0xabcdef0123456789abcdef0123456789abcdef01"),
  lowerAddress("0x000000000000000000000000000000000000c0de")
]
const calls = tokens.flatMap((target) => Object.values(selectors).map((selector) => ({ target, selector })))

const results = [
  { success: true, returnData: stringToHex("MKR", { size: 32 }) },
  { success: false, returnData: "0x" as const },
  {
    success: true,
    returnData: encodeFunctionResult({
      abi: [{ type: "function", name: "name", inputs: [], outputs: [{ type: "string" }], stateMutability: "view" }],
      functionName: "name",
      result: "A name longer than one word of thirty-two bytes"
    })
  },
  { success: true, returnData: `0x${"00".repeat(31)}12` as const },
  { success: false, returnData: "0x08c379a0" as const }
]
const answer = encodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", result: results })

describe("aggregate3 word by word", () => {
  it("writes the call data viem writes", () => {
    expect(encodeAggregate3(calls)).toBe(
      encodeFunctionData({
        abi: multicall3Abi,
        functionName: "aggregate3",
        args: [calls.map(({ selector, target }) => ({ target, allowFailure: true, callData: selector }))]
      })
    )
    expect(encodeAggregate3([])).toBe(
      encodeFunctionData({ abi: multicall3Abi, functionName: "aggregate3", args: [[]] })
    )
  })

  it("reads the results viem writes, failures and data of any length included", () => {
    expect(decodeAggregate3(answer)).toEqual(results)
  })

  it("reads nothing from an answer that is not aggregate3's", () => {
    expect(decodeAggregate3(answer.slice(0, -64))).toBeUndefined()
    expect(decodeAggregate3("0x")).toBeUndefined()
    expect(decodeAggregate3(`0x${"ff".repeat(64)}`)).toBeUndefined()
    expect(decodeAggregate3(`${answer}0`)).toBeUndefined()
  })
})

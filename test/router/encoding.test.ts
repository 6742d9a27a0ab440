/**
 * The plan encoding is defined once: the TypeScript ABI in src/execution/RouterPlan.ts must equal the
 * compiled contract's, and a plan survives encode -> decode unchanged.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  type Abi,
  type AbiParameter,
  concat,
  encodeErrorResult,
  getAddress,
  keccak256,
  pad,
  stringToBytes,
  toFunctionSelector,
  toHex
} from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { DevnetVenue } from "../../devnet/router.js"
import {
  decodePlanExecuted,
  decodeRouterCall,
  decodeRouterError,
  encodeExecute,
  encodeExecuteWithPermit,
  Funding,
  planExecutedTopics,
  quoteTag,
  routerAbi,
  type RouterPlan,
  StepFlag
} from "../../src/execution/RouterPlan.js"

/**
 * An ABI entry reduced to what the encoding depends on (names, types, components, indexed, an event's
 * anonymity); an unnamed
 * parameter is written "" by solc and left out by viem's parser.
 */
const shape = (params: ReadonlyArray<AbiParameter>): unknown =>
  params.map((p) => ({
    name: p.name === "" ? undefined : p.name,
    type: p.type,
    indexed: (p as { indexed?: boolean }).indexed ?? false,
    components: "components" in p ? shape(p.components) : undefined
  }))

const entries = (abi: Abi) =>
  Object.fromEntries(
    abi.filter((item) => item.type === "function" || item.type === "event" || item.type === "error").map((item) => [
      `${item.type} ${(item as { name: string }).name}`,
      {
        inputs: shape((item as { inputs: ReadonlyArray<AbiParameter> }).inputs),
        outputs: "outputs" in item ? shape(item.outputs) : undefined,
        // PlanExecuted is anonymous: its topics are the quote tag and the taker, no signature.
        anonymous: item.type === "event" ? (item as { anonymous?: boolean }).anonymous ?? false : undefined
      }
    ])
  )

const a = getAddress("0x1111111111111111111111111111111111111111")
const b = getAddress("0x2222222222222222222222222222222222222222")

const plan: RouterPlan = {
  quoteTag: quoteTag("q_0123abcd"),
  sellToken: a,
  buyToken: b,
  recipient: getAddress("0x3333333333333333333333333333333333333333"),
  funding: Funding.permit2,
  exactOut: true,
  amountIn: 123_456_789n,
  minAmountOut: 10n ** 30n,
  deadline: 1_900_000_000n,
  steps: [
    {
      venue: DevnetVenue.v4,
      flags: StepFlag.exactOut | StepFlag.toRouter,
      pool: getAddress("0x4444444444444444444444444444444444444444"),
      tokenIn: a,
      tokenOut: b,
      fee: 0x800000,
      tickSpacing: -60,
      hooks: getAddress("0x0000000000000000000000000000000000001080"),
      amount: 1n,
      limit: 2n ** 255n
    }
  ]
}

describe("router encoding", () => {
  it("the TypeScript ABI is the compiled contract's, for every function, event and error it names", () => {
    const compiled = entries(loadArtifact("TradeRouter").abi)
    const declared = entries(routerAbi)
    for (const [key, value] of Object.entries(declared)) expect(compiled[key], key).toEqual(value)
    // And nothing a caller could meet is missing from it (the callbacks are the pools' business).
    const callbacks = ["function uniswapV3SwapCallback", "function unlockCallback"]
    const immutables = Object.keys(compiled).filter((key) =>
      key.startsWith("function ") && compiled[key]!.inputs instanceof Array &&
      (compiled[key]!.inputs as []).length === 0
    )
    const missing = Object.keys(compiled).filter((key) =>
      !(key in declared) && !callbacks.includes(key) && !immutables.includes(key)
    )
    expect(missing).toEqual([])
  })

  it("a plan round-trips through execute and executeWithPermit calldata", () => {
    expect(decodeRouterCall(encodeExecute(plan))).toEqual({ functionName: "execute", plan })
    const permit = {
      details: { token: a, amount: 123_456_789n, expiration: 1_900_000_000, nonce: 7 },
      spender: b,
      sigDeadline: 1_800_000_000n
    }
    const signature = `0x${"ab".repeat(65)}` as const
    expect(decodeRouterCall(encodeExecuteWithPermit(plan, permit, signature))).toEqual({
      functionName: "executeWithPermit",
      plan,
      permit,
      signature
    })
  })

  it("execute's selector and the event's topics are the contract's", () => {
    expect(encodeExecute(plan).slice(0, 10)).toBe(
      toFunctionSelector(
        "execute((bytes32,address,address,address,uint256,uint256,uint256,(uint256,address,address,address,uint256,uint256)[]))"
      )
    )
    // Anonymous: no signature topic, the quote tag first and the taker second.
    expect(planExecutedTopics(quoteTag("q_0123abcd"), a)).toEqual([
      keccak256(stringToBytes("q_0123abcd")),
      pad(a)
    ])
    expect(quoteTag("q_0123abcd")).toBe(keccak256(stringToBytes("q_0123abcd")))
  })

  it("PlanExecuted's data is both amounts in one word, then the plan hash; another length is refused", () => {
    const most = (1n << 128n) - 1n
    const hash = keccak256(stringToBytes("a plan"))
    const topics = planExecutedTopics(quoteTag("q_0123abcd"), a)
    const word = (value: bigint) => toHex(value, { size: 32 })
    expect(decodePlanExecuted({ topics, data: concat([word((most << 128n) | 7n), hash]) })).toEqual({
      quoteTag: topics[0],
      taker: a,
      amountIn: most,
      amountOut: 7n,
      planHash: hash
    })
    expect(decodePlanExecuted({ topics, data: concat([word((5n << 128n) | most), hash]) })).toMatchObject({
      amountIn: 5n,
      amountOut: most
    })
    // Encoding 3's event: the amounts in two words.
    expect(() => decodePlanExecuted({ topics, data: concat([word(5n), word(7n), hash]) })).toThrow("96 data bytes")
    expect(() => decodePlanExecuted({ topics: [topics[0]], data: concat([word(5n), hash]) })).toThrow("1 topics")
  })

  it("decodes the router's errors and leaves others alone", () => {
    const data = encodeErrorResult({ abi: routerAbi, errorName: "InsufficientOutput", args: [5n, 6n] })
    expect(decodeRouterError(data)).toEqual({
      name: "InsufficientOutput",
      args: [5n, 6n],
      text: "InsufficientOutput(5, 6)"
    })
    expect(decodeRouterError("0x486aa307")).toBe(undefined)
  })
})

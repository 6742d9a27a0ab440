/**
 * The plan encoding is defined once: the TypeScript ABI in src/execution/RouterPlan.ts must equal the
 * compiled contract's, a plan survives encode -> decode unchanged, and the plan's bytes have one encoding
 * (the decoder refuses what the router refuses for shape; test/router/limits.test.ts sends them).
 */
import { describe, expect, it } from "@effect/vitest"
import {
  type Abi,
  type AbiParameter,
  concat,
  encodeErrorResult,
  getAddress,
  type Hex,
  keccak256,
  pad,
  size,
  slice,
  stringToBytes,
  toFunctionSelector,
  toHex,
  zeroAddress
} from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { DevnetVenue } from "../../devnet/router.js"
import {
  decodePlan,
  decodePlanExecuted,
  decodeRouterCall,
  decodeRouterError,
  encodeExecute,
  encodeExecuteWithPermit,
  encodePlan,
  Funding,
  planExecutedTopics,
  planHashOf,
  quoteTag,
  routerAbi,
  type RouterPlan,
  type RouterStep,
  SHARE_ALL,
  StepFlag,
  WHOLE_BALANCE
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

const c = getAddress("0x5555555555555555555555555555555555555555")
const pool = getAddress("0x6666666666666666666666666666666666666666")
const v2Step = (tokenIn: typeof a, tokenOut: typeof a, flags: number, amount: bigint): RouterStep => ({
  venue: DevnetVenue.v2,
  flags,
  pool,
  tokenIn,
  tokenOut,
  fee: 0,
  tickSpacing: 0,
  hooks: zeroAddress,
  amount,
  limit: 7n
})
const v3Step = (tokenIn: typeof a, tokenOut: typeof a, flags: number, amount: bigint): RouterStep => ({
  ...v2Step(tokenIn, tokenOut, flags, amount),
  venue: DevnetVenue.v3,
  fee: 3000
})

/** Every shape: a split, a two-hop exact in, a chain of three, each encodable and read back unchanged. */
const shapes: ReadonlyArray<RouterPlan> = [
  plan,
  { ...plan, exactOut: false, amountIn: WHOLE_BALANCE, steps: [v2Step(a, b, 0, WHOLE_BALANCE), v3Step(a, b, 0, 5n)] },
  {
    ...plan,
    exactOut: false,
    minAmountOut: 0n,
    steps: [v2Step(a, c, StepFlag.toRouter, 9n), v3Step(c, b, StepFlag.fromRouter, SHARE_ALL)]
  },
  {
    ...plan,
    steps: [
      v3Step(c, b, StepFlag.exactOut | StepFlag.fromRouter, 10n ** 18n),
      v2Step(pool, c, StepFlag.exactOut | StepFlag.fromRouter | StepFlag.toRouter, 0n),
      v3Step(a, pool, StepFlag.exactOut | StepFlag.toRouter, 0n)
    ]
  }
]

describe("the plan's bytes", () => {
  it("round-trip every shape, and planHash is the hash of exactOut and the bytes after the deadline", () => {
    for (const shape of shapes) {
      expect(decodePlan(encodePlan(shape))).toEqual(shape)
      expect(planHashOf(shape)).toBe(
        keccak256(concat([shape.exactOut ? "0x01" : "0x00", slice(encodePlan(shape), 39)]))
      )
      // Bound: exactOut (in the head byte, outside the hashed slice) changes it.
      expect(planHashOf({ ...shape, exactOut: !shape.exactOut })).not.toBe(planHashOf(shape))
    }
  })

  it("write each field at its width, amounts without leading zeros, and no implied token", () => {
    const bytes = encodePlan(shapes[2]!)
    // 32 tag, head, 6 deadline, 3 addresses, amountIn and minAmountOut, the count, then the two steps:
    // the first pays the router (its output), the second spends from it (its input); v3 adds its fee.
    const amount = (value: bigint) => (value === 0n ? 1 : 1 + Math.ceil(value.toString(16).length / 2))
    expect(size(bytes)).toBe(
      99 + amount(123_456_789n) + amount(0n) + 1 + (22 + 20 + amount(9n) + amount(7n)) +
        (22 + 20 + 3 + amount(SHARE_ALL) + amount(7n))
    )
    const at = (value: bigint) =>
      encodePlan({ ...plan, amountIn: value }).slice(2 + 2 * 99, 2 + 2 * 99 + 2 * amount(value))
    expect([at(0n), at(255n), at(256n), at(WHOLE_BALANCE)]).toEqual(["00", "01ff", "020100", `20${"ff".repeat(32)}`])
    // The head byte: funding in bits 0-1, exactOut in bit 2.
    expect(slice(encodePlan(plan), 32, 33)).toBe("0x05")
  })

  it("cannot say a step that takes another token from the taker or pays the recipient in another, nor a wrong link", () => {
    expect(() => encodePlan({ ...plan, steps: [v2Step(c, b, 0, 1n)] })).toThrow(
      "a taker-paid step spends the sell token"
    )
    expect(() => encodePlan({ ...plan, steps: [v2Step(a, c, 0, 1n)] })).toThrow(
      "a step paying the recipient makes the buy token"
    )
    const chain = shapes[3]!.steps
    expect(() => encodePlan({ ...plan, steps: [chain[0]!, { ...chain[1]!, tokenOut: a }, chain[2]!] }))
      .toThrow("a link makes the input of the step above")
    expect(() => encodePlan({ ...plan, steps: [chain[0]!, { ...chain[1]!, amount: 1n }, chain[2]!] }))
      .toThrow("a link's amount is what the step above owes")
    expect(() => encodePlan({ ...plan, steps: [v2Step(a, b, 8, 1n)] })).toThrow("flags 8 are not 0-7")
  })

  it("read back refuses a plan cut short anywhere, trailing bytes, a padded or over-wide amount, spare bits", () => {
    const bytes = encodePlan(shapes[3]!)
    for (let length = 0; length < size(bytes); length++) {
      expect(() => decodePlan(length === 0 ? "0x" : slice(bytes, 0, length)), `${length}`).toThrow()
    }
    expect(() => decodePlan(concat([bytes, "0x00"]))).toThrow("bytes after its last step")
    const length = Number(slice(bytes, 99, 100))
    const padded = concat([slice(bytes, 0, 99), toHex(length + 1, { size: 1 }), "0x00", slice(bytes, 100)])
    expect(() => decodePlan(padded)).toThrow("leading zero byte")
    expect(() => decodePlan(concat([slice(bytes, 0, 99), "0x21", slice(bytes, 99)]))).toThrow("is 33 bytes")
    const withByte = (at: number, value: number): Hex =>
      concat([slice(bytes, 0, at), toHex(value, { size: 1 }), slice(bytes, at + 1)])
    expect(() => decodePlan(withByte(32, 0x0d))).toThrow("bits above its fields")
    const stepAt = size(encodePlan({ ...shapes[3]!, steps: [] }))
    expect(() => decodePlan(withByte(stepAt + 1, 0x3b))).toThrow("bits above the key kind")
    // A chain head followed by a step that is no link, or by nothing.
    expect(() => decodePlan(encodePlan({ ...plan, steps: [shapes[3]!.steps[0]!, v2Step(a, b, 0, 1n)] })))
      .toThrow("a chain's link expected")
    expect(() => decodePlan(encodePlan({ ...plan, steps: [shapes[3]!.steps[0]!] }))).toThrow("no last link")
  })
})

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
    expect(encodeExecute(plan).slice(0, 10)).toBe(toFunctionSelector("execute(bytes)"))
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

/**
 * The router's plan codec: what `quote` simulates and `swap` puts in a transaction's `data`, and the
 * event `receipt` searches, in the ABI of ./RouterAbi.ts (re-exported here, so callers import one
 * module). Pure: viem's ABI utilities, no transport.
 */
import {
  type Address,
  concat,
  decodeAbiParameters,
  decodeErrorResult,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  keccak256,
  pad,
  parseAbiParameters,
  size,
  slice,
  stringToBytes
} from "viem"
import { decodePlan, encodePlan, HASHED_FROM } from "./PlanBytes.js"
import { Funding, NATIVE_PER_USDC_UNIT, type PermitSingle, routerAbi, type RouterPlan } from "./RouterAbi.js"

export { decodePlan, encodePlan } from "./PlanBytes.js"
export * from "./RouterAbi.js"

/** The tag a quote's fills carry in `PlanExecuted`: keccak256 of the quote id's UTF-8 bytes. */
export const quoteTag = (quoteId: string): Hex => keccak256(stringToBytes(quoteId))

/** Calldata of `execute(plan)`; send `value` = amountIn × 10¹² when `funding` is native. */
export const encodeExecute = (plan: RouterPlan): Hex =>
  encodeFunctionData({ abi: routerAbi, functionName: "execute", args: [encodePlan(plan)] })

export const encodeExecuteWithPermit = (plan: RouterPlan, permit: PermitSingle, signature: Hex): Hex =>
  encodeFunctionData({
    abi: routerAbi,
    functionName: "executeWithPermit",
    args: [encodePlan(plan), permit, signature]
  })

/** The native value a plan's transaction must carry. */
export const planValue = (plan: RouterPlan): bigint =>
  plan.funding === Funding.native ? plan.amountIn * NATIVE_PER_USDC_UNIT : 0n

export type DecodedRouterCall =
  | { readonly functionName: "execute"; readonly plan: RouterPlan }
  | {
    readonly functionName: "executeWithPermit"
    readonly plan: RouterPlan
    readonly permit: PermitSingle
    readonly signature: Hex
  }

/** Reads a router transaction's `data` back into its plan (throws on anything else). */
export const decodeRouterCall = (data: Hex): DecodedRouterCall => {
  const decoded = decodeFunctionData({ abi: routerAbi, data })
  if (decoded.functionName === "execute") {
    return { functionName: "execute", plan: decodePlan(decoded.args[0]) }
  }
  if (decoded.functionName !== "executeWithPermit") throw new Error(`not a plan: ${decoded.functionName}`)
  const [plan, permit, signature] = decoded.args
  return { functionName: "executeWithPermit", plan: decodePlan(plan), permit, signature }
}

export interface PlanExecuted {
  readonly quoteTag: Hex
  readonly taker: Address
  readonly amountIn: bigint
  readonly amountOut: bigint
  /** `planHashOf` the executed plan: its tokens and recipient are the ones the hash was made of */
  readonly planHash: Hex
}

/** The topics of `taker`'s fills of the quote tagged `tag`, which `eth_getLogs` filters on: `PlanExecuted`
 * is anonymous, so topic 0 is the tag and topic 1 the taker (there is no signature topic). */
export const planExecutedTopics = (tag: Hex, taker: Address): readonly [Hex, Hex] => [tag, pad(taker)]

const planExecutedData = parseAbiParameters("uint256 amounts, bytes32 planHash")

/** `PlanExecuted.amounts`' halves: `amountIn` above bit 128, `amountOut` below (the router refuses either
 * wider than 128 bits rather than cut it). */
const AMOUNT_BITS = 128n
const AMOUNT_MASK = (1n << AMOUNT_BITS) - 1n

/** What the router's `PlanExecuted.planHash` carries for `plan`: keccak256 of one byte `exactOut` and its
 * bytes after the deadline, i.e. whether it is exact out, its tokens, recipient, amounts and steps as sent
 * (not its tag, funding or deadline, which say how and when it is sent, not what it trades). */
export const planHashOf = (plan: RouterPlan): Hex =>
  keccak256(concat([plan.exactOut ? "0x01" : "0x00", slice(encodePlan(plan), HASHED_FROM)]))

/** A router log as `PlanExecuted` (the router emits no other event); throws on another shape. Anonymous
 * events are decoded by hand: viem's event decoder finds an event by its signature topic. */
export const decodePlanExecuted = (log: { readonly data: Hex; readonly topics: ReadonlyArray<Hex> }): PlanExecuted => {
  const [tag, takerTopic] = log.topics
  if (log.topics.length !== 2 || tag === undefined || takerTopic === undefined) {
    throw new Error(`not a PlanExecuted log: ${log.topics.length} topics`)
  }
  const [taker] = decodeAbiParameters([{ type: "address" }], takerTopic)
  // Exactly two words: an encoding-3 router's three-word event is not read as this one.
  if (size(log.data) !== 64) throw new Error(`not a PlanExecuted log: ${size(log.data)} data bytes`)
  const [amounts, planHash] = decodeAbiParameters(planExecutedData, log.data)
  return { quoteTag: tag, taker, amountIn: amounts >> AMOUNT_BITS, amountOut: amounts & AMOUNT_MASK, planHash }
}

/** The router's `PlanExecuted` among a call's logs (a simulated call's or a receipt's), if it emitted one. */
export const planExecutedIn = (
  router: Address,
  logs: ReadonlyArray<{ readonly address: string; readonly data: Hex; readonly topics: ReadonlyArray<Hex> }>
): PlanExecuted | undefined => {
  for (const log of logs) {
    if (log.address.toLowerCase() !== router.toLowerCase()) continue
    try {
      return decodePlanExecuted(log)
    } catch {
      // not of PlanExecuted's shape: look further
    }
  }
  return undefined
}

/** The router's custom error in revert data (a simulation's or a receipt's), or undefined if it is
 * not one of the router's (a pool's, a token's or Permit2's own error passes through undecoded). */
export const decodeRouterError = (
  data: Hex
): { readonly name: string; readonly args: ReadonlyArray<unknown>; readonly text: string } | undefined => {
  try {
    const decoded = decodeErrorResult({ abi: routerAbi, data })
    const args = decoded.args ?? []
    return { name: decoded.errorName, args, text: `${decoded.errorName}(${args.map(String).join(", ")})` }
  } catch {
    return undefined
  }
}

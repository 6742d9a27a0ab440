/**
 * The swap as the taker will send it, simulated from the taker's own wallet at the current block:
 * the approvals it still needs, then the router call, in one `eth_simulateV1` request on the real
 * balances and allowances. A permit not yet signed stands in as the taker's own Permit2 `approve` of
 * the same amount and expiry (the state a valid signature produces), so the router's Permit2 pull is
 * exercised exactly as it will be.
 *
 * The limits each transaction is returned with are found by ./GasFit.ts, and the simulation whose
 * figures `swap` returns is run again at exactly those limits: a transaction that fails at the limit it
 * is handed out with is never handed out. A sell-back from the taker's own wallet may follow in the next
 * block (./TakerSellBack.ts), on the state the swap leaves.
 */
import { Effect } from "effect"
import { type Address, encodeFunctionData, type Hex, parseAbi } from "viem"
import { DEFAULT_GAS, type SimCall, type SimResult, Simulator } from "../../layers/Simulator.js"
import { decodeRouterError, type PermitSingle, planExecutedIn } from "../execution/RouterPlan.js"
import { resetFirst } from "./Funding.js"
import { gasLimit } from "./Gas.js"
import { leastLimits } from "./GasFit.js"

const permit2Abi = parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"])

/** Router errors that mean the pools moved against the plan, rather than that the swap cannot work. */
const PRICE_ERRORS = new Set([
  "InsufficientOutput",
  "StepOutputTooLow",
  "StepInputTooHigh",
  "InputAboveMaximum",
  "PartialFill"
])

export interface ApprovalCall {
  readonly to: Address
  readonly data: Hex
}

export interface TakerSimulationRequest {
  readonly block: bigint
  readonly taker: Address
  readonly router: Address
  readonly approvals: ReadonlyArray<ApprovalCall>
  /** A permit the taker will sign, simulated as the equivalent Permit2 approval. */
  readonly pendingPermit: { readonly permit2: Address; readonly permit: PermitSingle } | undefined
  /** The router call: `execute(plan)`, or `executeWithPermit` with a signed permit. */
  readonly swap: { readonly data: Hex; readonly value: bigint }
  /**
   * An exact-output plan: its pools deliver exactly the amount (the curve at least it) whatever the
   * price, which moves only its input, so an output short of the minimum is the token's (a transfer tax)
   * and no price move: quoting again cannot fill it.
   */
  readonly exactOut: boolean
  /** Calls to run in the block after the swap (the taker's sell-back), whose results ride on the outcome. */
  readonly after?: ReadonlyArray<SimCall>
}

export type TakerOutcome =
  | {
    readonly _tag: "Executed"
    readonly amountIn: bigint
    readonly amountOut: bigint
    /** The least gas limit each transaction succeeds under; it is sent with `gasLimit` of it. */
    readonly approvalGas: ReadonlyArray<bigint>
    /** The Permit2 approval standing in for the signature, 0 without one. */
    readonly permitGas: bigint
    readonly swapGas: bigint
    /** The results of `after`, run on what the swap left (under the limits it was first simulated with). */
    readonly after: ReadonlyArray<SimResult>
  }
  | {
    readonly _tag: "Reverted"
    readonly reason: string
    readonly priceMoved: boolean
    /** Which call reverted. */
    readonly stage: "approval" | "permit" | "swap"
  }

const APPROVAL_GAS_LIMIT = 200_000n

const reasonOf = (result: SimResult) => {
  const routerError = decodeRouterError(result.returnData)
  if (routerError !== undefined) return { reason: routerError.text, name: routerError.name }
  return { reason: result.error ?? "reverted without reason", name: undefined }
}

/** The transactions in the order the taker sends them, each under the most gas it may take. */
const takerCalls = (request: TakerSimulationRequest): ReadonlyArray<SimCall> => {
  const { taker } = request
  const permitCall: ReadonlyArray<SimCall> = request.pendingPermit === undefined ? [] : [{
    from: taker,
    to: request.pendingPermit.permit2,
    data: encodeFunctionData({
      abi: permit2Abi,
      functionName: "approve",
      args: [
        request.pendingPermit.permit.details.token,
        request.pendingPermit.permit.spender,
        request.pendingPermit.permit.details.amount,
        request.pendingPermit.permit.details.expiration
      ]
    }),
    gas: APPROVAL_GAS_LIMIT
  }]
  return [
    ...request.approvals.map((approval) => ({ from: taker, ...approval, gas: APPROVAL_GAS_LIMIT })),
    ...permitCall,
    { from: taker, to: request.router, data: request.swap.data, value: request.swap.value, gas: DEFAULT_GAS }
  ]
}

/** The first call that failed, as the outcome that says so; `tight`: it ran at the limits it would be sent with. */
const firstFailure = (request: TakerSimulationRequest, results: ReadonlyArray<SimResult>, tight: boolean) => {
  for (const [i, result] of results.entries()) {
    if (result.ok) continue
    const { name, reason } = reasonOf(result)
    const which = i < request.approvals.length ? "approval" : i === results.length - 1 ? "swap" : "permit"
    return {
      _tag: "Reverted",
      reason: tight ? `${which}: ${reason} at the gas limit it would be sent with` : `${which}: ${reason}`,
      priceMoved: name !== undefined && PRICE_ERRORS.has(name) && !(request.exactOut && name === "InsufficientOutput"),
      stage: which
    } satisfies TakerOutcome
  }
  return undefined
}

export const simulateTakerSwap = Effect.fn("Swap.simulateTaker")(function*(request: TakerSimulationRequest) {
  const simulator = yield* Simulator
  const calls = takerCalls(request)
  const run = (limits: ReadonlyArray<bigint>, after: ReadonlyArray<SimCall> = []) =>
    simulator.simulate({
      block: request.block,
      blocks: [calls.map((call, i) => ({ ...call, gas: limits[i]! })), ...(after.length === 0 ? [] : [after])]
    })
  const caps = calls.map((call) => call.gas!)
  const [first = [], after = []] = yield* run(caps, request.after)
  const failed = firstFailure(request, first, false)
  if (failed !== undefined) return failed
  const least = yield* leastLimits(
    (limits) => Effect.map(run(limits), ([block]) => block ?? []),
    first.map((r) => r.gasUsed),
    caps
  )
  const [results = []] = yield* run(least.map(gasLimit))
  const tight = firstFailure(request, results, true)
  if (tight !== undefined) return tight
  const swap = results[results.length - 1]
  const executed = swap === undefined ? undefined : planExecutedIn(request.router, swap.logs)
  if (executed === undefined) {
    return {
      _tag: "Reverted",
      reason: "swap: the router reported no execution",
      priceMoved: false,
      stage: "swap"
    } satisfies TakerOutcome
  }
  const approvals = request.approvals.length
  return {
    _tag: "Executed",
    amountIn: executed.amountIn,
    amountOut: executed.amountOut,
    approvalGas: least.slice(0, approvals),
    permitGas: request.pendingPermit === undefined ? 0n : least[approvals]!,
    swapGas: least[least.length - 1]!,
    after
  } satisfies TakerOutcome
})

/**
 * The swap simulated as above; when an approval reverts while the wallet holds a `leftover` non-zero
 * allowance (a token that refuses to change one non-zero allowance into another, as USDT does), again
 * with each approval preceded by one of 0. The approvals that went through are the ones to send.
 */
export const simulateResetting = Effect.fn("Swap.simulateResetting")(
  function*(request: TakerSimulationRequest, leftover: bigint) {
    const outcome = yield* simulateTakerSwap(request)
    if (outcome._tag === "Executed" || outcome.stage !== "approval" || leftover === 0n) {
      return { approvals: request.approvals, outcome }
    }
    const approvals = resetFirst(request.approvals)
    const retried = yield* simulateTakerSwap({ ...request, approvals })
    return retried._tag === "Executed" ? { approvals, outcome: retried } : { approvals: request.approvals, outcome }
  }
)

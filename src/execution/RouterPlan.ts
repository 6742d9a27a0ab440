/**
 * The router's plan encoding, defined once for TypeScript: what `quote` simulates and `swap` puts in a
 * transaction's `data`, and the event `receipt` searches. It mirrors contracts/router/ITradeRouter.sol
 * (test/router/encoding.test.ts holds the two ABIs equal). Pure: viem's ABI utilities, no transport.
 *
 * The ABI, the calldata codec and the event and error decoders are one definition, so they share a file.
 */
import {
  type Address,
  decodeErrorResult,
  decodeEventLog,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseAbi,
  parseAbiParameters,
  stringToBytes,
  toEventSelector
} from "viem"

export const routerAbi = parseAbi([
  "struct Step { uint8 venue; uint8 flags; address pool; address tokenIn; address tokenOut; uint24 fee; int24 tickSpacing; address hooks; uint256 amount; uint256 limit; }",
  "struct Plan { bytes32 quoteTag; address sellToken; address buyToken; address recipient; uint8 funding; bool exactOut; uint256 amountIn; uint256 minAmountOut; uint256 deadline; Step[] steps; }",
  "struct PermitDetails { address token; uint160 amount; uint48 expiration; uint48 nonce; }",
  "struct PermitSingle { PermitDetails details; address spender; uint256 sigDeadline; }",
  "function execute(Plan plan) payable returns (uint256 amountIn, uint256 amountOut)",
  "function executeWithPermit(Plan plan, PermitSingle permit, bytes signature) returns (uint256 amountIn, uint256 amountOut)",
  "event PlanExecuted(bytes32 indexed quoteTag, address indexed taker, address indexed recipient, address sellToken, address buyToken, uint256 amountIn, uint256 amountOut, bytes32 planHash)",
  "error Reentrancy()",
  "error DeadlineExpired(uint256 deadline, uint256 timestamp)",
  "error InvalidRecipient(address recipient)",
  "error RecipientIsPool(address pool)",
  "error EmptyPlan()",
  "error InvalidPlan()",
  "error InvalidStep(uint256 index)",
  "error UnknownVenue(uint256 index, uint8 venue)",
  "error VenueUnavailable(uint256 index)",
  "error ForgedPool(uint256 index, address pool, address expected)",
  "error PayerTokenMismatch(uint256 index)",
  "error OutputTokenMismatch(uint256 index)",
  "error ShareTooLarge(uint256 index)",
  "error StepOutputTooLow(uint256 index, uint256 amountOut, uint256 limit)",
  "error StepInputTooHigh(uint256 index, uint256 amountIn, uint256 limit)",
  "error PartialFill(uint256 index, uint256 amountOut, uint256 wanted)",
  "error BadDelta(uint256 index)",
  "error InputAboveMaximum(uint256 paid, uint256 maximum)",
  "error InputNotSpent(uint256 paid, uint256 amountIn)",
  "error InsufficientOutput(uint256 amountOut, uint256 minAmountOut)",
  "error UnexpectedValue(uint256 value)",
  "error NativeFundingUnavailable()",
  "error UnknownFunding(uint8 funding)",
  "error PermitMismatch()",
  "error UnexpectedCallback(address caller)",
  "error AmountTooLarge(uint256 amount)",
  "error TokenCallFailed(address token)",
  "error HoldingShort(address token, uint256 held, uint256 wanted)"
])

/** `Step.venue`. */
export const Venue = { v2: 0, v3: 1, v4: 2, curve: 3 } as const
export type VenueCode = (typeof Venue)[keyof typeof Venue]

/** `Step.flags`, or-ed together. */
export const StepFlag = {
  /** the step's `amount` is its exact output and `limit` its most input */
  exactOut: 1,
  /** the input comes from what earlier steps left in the router, not from the taker */
  fromRouter: 2,
  /** the output stays in the router for later steps instead of going to the recipient */
  toRouter: 4
} as const

/** `Plan.funding`. */
export const Funding = { approval: 0, permit2: 1, native: 2 } as const
export type FundingCode = (typeof Funding)[keyof typeof Funding]

/** Exact-in steps funded by the router: `amount` is a share of its holding of `tokenIn`; this is all. */
export const SHARE_ALL = 10n ** 18n

/** As an exact-in plan's `amountIn` (approval or Permit2 funding): all the taker holds of the sell
 * token when the plan starts; as a taker-funded exact-in step's `amount`: that resolved amount. */
export const WHOLE_BALANCE = 2n ** 256n - 1n

/** Native value per USDC base unit when a plan is funded with native value (18 vs 6 decimals). */
export const NATIVE_PER_USDC_UNIT = 10n ** 12n

export interface RouterStep {
  readonly venue: VenueCode
  readonly flags: number
  /** v2 pair, v3 pool, the PoolManager (v4) or the launchpad (curve) */
  readonly pool: Address
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** v3 fee tier or v4 key fee (0x800000 dynamic); 0 otherwise */
  readonly fee: number
  /** v4 key only; 0 otherwise */
  readonly tickSpacing: number
  /** v4 key only; the zero address otherwise */
  readonly hooks: Address
  readonly amount: bigint
  readonly limit: bigint
}

export interface RouterPlan {
  readonly quoteTag: Hex
  readonly sellToken: Address
  readonly buyToken: Address
  readonly recipient: Address
  readonly funding: FundingCode
  readonly exactOut: boolean
  /** exact-in: exactly this much sell token; exact-out: at most this much */
  readonly amountIn: bigint
  readonly minAmountOut: bigint
  /** unix seconds */
  readonly deadline: bigint
  readonly steps: ReadonlyArray<RouterStep>
}

export interface PermitSingle {
  readonly details: {
    readonly token: Address
    readonly amount: bigint
    readonly expiration: number
    readonly nonce: number
  }
  readonly spender: Address
  readonly sigDeadline: bigint
}

/** The tag a quote's fills carry in `PlanExecuted`: keccak256 of the quote id's UTF-8 bytes. */
export const quoteTag = (quoteId: string): Hex => keccak256(stringToBytes(quoteId))

/** Calldata of `execute(plan)`; send `value` = amountIn × 10¹² when `funding` is native. */
export const encodeExecute = (plan: RouterPlan): Hex =>
  encodeFunctionData({ abi: routerAbi, functionName: "execute", args: [plan] })

export const encodeExecuteWithPermit = (plan: RouterPlan, permit: PermitSingle, signature: Hex): Hex =>
  encodeFunctionData({ abi: routerAbi, functionName: "executeWithPermit", args: [plan, permit, signature] })

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

const fromAbiPlan = (
  plan:
    & {
      readonly steps: ReadonlyArray<Omit<RouterStep, "venue"> & { readonly venue: number }>
    }
    & Omit<RouterPlan, "steps" | "funding">
    & { readonly funding: number }
): RouterPlan => ({
  ...plan,
  funding: plan.funding as FundingCode,
  steps: plan.steps.map((step) => ({ ...step, venue: step.venue as VenueCode }))
})

/** Reads a router transaction's `data` back into its plan (throws on anything else). */
export const decodeRouterCall = (data: Hex): DecodedRouterCall => {
  const decoded = decodeFunctionData({ abi: routerAbi, data })
  if (decoded.functionName === "execute") {
    return { functionName: "execute", plan: fromAbiPlan(decoded.args[0]) }
  }
  const [plan, permit, signature] = decoded.args
  return { functionName: "executeWithPermit", plan: fromAbiPlan(plan), permit, signature }
}

export interface PlanExecuted {
  readonly quoteTag: Hex
  readonly taker: Address
  readonly recipient: Address
  readonly sellToken: Address
  readonly buyToken: Address
  readonly amountIn: bigint
  readonly amountOut: bigint
  /** `planHashOf` the executed plan */
  readonly planHash: Hex
}

/** topic0 of `PlanExecuted`; topic1 is the quote tag, so `eth_getLogs` can find a quote's fills. */
export const planExecutedTopic: Hex = toEventSelector(
  "PlanExecuted(bytes32,address,address,address,address,uint256,uint256,bytes32)"
)

const planHashParameters = parseAbiParameters([
  "address sellToken, address buyToken, bool exactOut, uint256 amountIn, uint256 minAmountOut, Step[] steps",
  "struct Step { uint8 venue; uint8 flags; address pool; address tokenIn; address tokenOut; uint24 fee; int24 tickSpacing; address hooks; uint256 amount; uint256 limit; }"
])

/** What the router's `PlanExecuted.planHash` carries for `plan`: its tokens, amounts and steps (not its
 * tag, recipient, funding or deadline, which say how and when it is sent, not what it trades). */
export const planHashOf = (plan: RouterPlan): Hex =>
  keccak256(
    encodeAbiParameters(planHashParameters, [
      plan.sellToken,
      plan.buyToken,
      plan.exactOut,
      plan.amountIn,
      plan.minAmountOut,
      plan.steps
    ])
  )

export const decodePlanExecuted = (log: { readonly data: Hex; readonly topics: ReadonlyArray<Hex> }): PlanExecuted => {
  const { args } = decodeEventLog({
    abi: routerAbi,
    eventName: "PlanExecuted",
    data: log.data,
    topics: log.topics as [Hex, ...Array<Hex>]
  })
  return args
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
      // another event of the router's: look further
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

/**
 * The router's ABI and plan shapes, defined once for TypeScript: it mirrors contracts/router/ITradeRouter.sol
 * and the venue table's views in VenueTable.sol (test/router/encoding.test.ts holds the two ABIs equal).
 * ./RouterPlan.ts encodes and decodes with it; `RouterPlan` is the plan as fields, ./PlanBytes.ts its
 * calldata bytes.
 */
import { type Address, type Hex, parseAbi } from "viem"

/** `PlanExecuted` is anonymous (no signature topic: topic 0 is the quote tag, topic 1 the taker), which the
 * human-readable ABI cannot say. `amounts` is `amountIn` in its high 128 bits and `amountOut` in its low
 * 128 (./RouterPlan.ts `decodePlanExecuted` splits it). */
const planExecutedEvent = {
  type: "event",
  name: "PlanExecuted",
  anonymous: true,
  inputs: [
    { name: "quoteTag", type: "bytes32", indexed: true },
    { name: "taker", type: "address", indexed: true },
    { name: "amounts", type: "uint256", indexed: false },
    { name: "planHash", type: "bytes32", indexed: false }
  ]
} as const

export const routerAbi = [
  ...parseAbi([
    "struct PermitDetails { address token; uint160 amount; uint48 expiration; uint48 nonce; }",
    "struct PermitSingle { PermitDetails details; address spender; uint256 sigDeadline; }",
    "function execute(bytes plan) payable returns (uint256 amountIn, uint256 amountOut)",
    "function executeWithPermit(bytes plan, PermitSingle permit, bytes signature) returns (uint256 amountIn, uint256 amountOut)",
    "struct VenueConfig { uint8 family; address registry; address deployer; uint24 fee; bytes4 feeGetter; uint32 feeDenominator; bytes32 initCodeHash; bytes4 swapCallback; }",
    "function venueCount() view returns (uint256 count)",
    "function venueAt(uint8 index) view returns (VenueConfig venue)",
    "function permit2() view returns (address)",
    "function PLAN_ENCODING() view returns (uint8)",
    "error Reentrancy()",
    "error DeadlineExpired(uint256 deadline, uint256 timestamp)",
    "error InvalidRecipient(address recipient)",
    "error RecipientIsPool(address pool)",
    "error EmptyPlan()",
    "error InvalidPlan()",
    "error MalformedPlan(uint256 offset)",
    "error InvalidStep(uint256 index)",
    "error UnknownVenue(uint256 index, uint8 venue)",
    "error InvalidVenueTable(uint256 index)",
    "error BadPairFee(uint256 index, uint256 fee)",
    "error ForgedPool(uint256 index, address pool, address expected)",
    "error ShareTooLarge(uint256 index)",
    "error StepOutputTooLow(uint256 index, uint256 amountOut, uint256 limit)",
    "error StepInputTooHigh(uint256 index, uint256 amountIn, uint256 limit)",
    "error PartialFill(uint256 index, uint256 amountOut, uint256 wanted)",
    "error PairInputShort(uint256 index, uint256 received, uint256 needed)",
    "error BadDelta(uint256 index)",
    "error InputAboveMaximum(uint256 amount, uint256 remaining)",
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
  ]),
  planExecutedEvent
] as const

/** The router's `PLAN_ENCODING` this service's calldata and event decoding are for (routers of the first
 * encoding have no such getter). */
export const PLAN_ENCODING = 5

/** `Step.flags`, or-ed together. */
export const StepFlag = {
  /** the step's `amount` is its exact output and `limit` its most input */
  exactOut: 1,
  /** the input comes from what earlier steps left in the router, not from the taker */
  fromRouter: 2,
  /** the output does not go to the recipient: it stays in the router for later steps, or (a chain's link) goes to the pool of the step above */
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
  /** the venue's index in the router's venue table, which is its venue file's order */
  readonly venue: number
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

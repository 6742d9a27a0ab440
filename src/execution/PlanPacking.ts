/**
 * The plan's calldata shape: `RouterPlan` with its small fields packed into shared words, as the router
 * unpacks them (contracts/router/ITradeRouter.sol has the layouts). A step's venue, flags, fee and tick
 * spacing ride in the 96 bits its pool address leaves empty; the plan's funding, exactOut and deadline
 * share one word. Fewer calldata words, each zero byte of them 4 gas, every one the router no longer
 * decodes. Pure.
 */
import { type Address, getAddress, type Hex, toHex } from "viem"
import type { FundingCode, RouterPlan, RouterStep } from "./RouterAbi.js"

/** `Step` as the router's ABI has it. */
export interface PackedStep {
  readonly pool: bigint
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly hooks: Address
  readonly amount: bigint
  readonly limit: bigint
}

/** `Plan` as the router's ABI has it. */
export interface PackedPlan {
  readonly quoteTag: Hex
  readonly sellToken: Address
  readonly buyToken: Address
  readonly recipient: Address
  readonly head: bigint
  readonly amountIn: bigint
  readonly minAmountOut: bigint
  readonly steps: ReadonlyArray<PackedStep>
}

const TICK_BITS = 24n
const TICK_SIGN = 1n << (TICK_BITS - 1n)

/** `value` as an unsigned field of `bits` bits; a value that does not fit is a bug of the plan's builder. */
const fits = (value: bigint, bits: bigint, name: string): bigint => {
  if (value < 0n || value >> bits !== 0n) throw new Error(`plan ${name} ${value} does not fit ${bits} bits`)
  return value
}

const bitsOf = (word: bigint, from: bigint, bits: bigint) => (word >> from) & ((1n << bits) - 1n)

export const packStep = (step: RouterStep): PackedStep => {
  const tick = BigInt(step.tickSpacing)
  if (tick < -TICK_SIGN || tick >= TICK_SIGN) throw new Error(`plan tickSpacing ${tick} does not fit int24`)
  return {
    pool: BigInt(step.pool) |
      fits(BigInt(step.venue), 8n, "venue") << 160n |
      fits(BigInt(step.flags), 8n, "flags") << 168n |
      fits(BigInt(step.fee), 24n, "fee") << 176n |
      (tick & ((1n << TICK_BITS) - 1n)) << 200n,
    tokenIn: step.tokenIn,
    tokenOut: step.tokenOut,
    hooks: step.hooks,
    amount: step.amount,
    limit: step.limit
  }
}

export const packPlan = (plan: RouterPlan): PackedPlan => ({
  quoteTag: plan.quoteTag,
  sellToken: plan.sellToken,
  buyToken: plan.buyToken,
  recipient: plan.recipient,
  head: BigInt(plan.funding) | (plan.exactOut ? 1n : 0n) << 8n | fits(plan.deadline, 48n, "deadline") << 16n,
  amountIn: plan.amountIn,
  minAmountOut: plan.minAmountOut,
  steps: plan.steps.map(packStep)
})

const unpackStep = (step: PackedStep): RouterStep => {
  const tick = bitsOf(step.pool, 200n, TICK_BITS)
  return {
    venue: Number(bitsOf(step.pool, 160n, 8n)),
    flags: Number(bitsOf(step.pool, 168n, 8n)),
    pool: getAddress(toHex(bitsOf(step.pool, 0n, 160n), { size: 20 })),
    tokenIn: step.tokenIn,
    tokenOut: step.tokenOut,
    fee: Number(bitsOf(step.pool, 176n, 24n)),
    tickSpacing: Number(tick >= TICK_SIGN ? tick - (1n << TICK_BITS) : tick),
    hooks: step.hooks,
    amount: step.amount,
    limit: step.limit
  }
}

/** A plan read back from calldata, as the router reads it (bits above the packed fields are ignored
 * here; the router refuses them). */
export const unpackPlan = (plan: PackedPlan): RouterPlan => ({
  quoteTag: plan.quoteTag,
  sellToken: plan.sellToken,
  buyToken: plan.buyToken,
  recipient: plan.recipient,
  funding: Number(bitsOf(plan.head, 0n, 8n)) as FundingCode,
  exactOut: bitsOf(plan.head, 8n, 8n) !== 0n,
  amountIn: plan.amountIn,
  minAmountOut: plan.minAmountOut,
  deadline: bitsOf(plan.head, 16n, 48n),
  steps: plan.steps.map(unpackStep)
})

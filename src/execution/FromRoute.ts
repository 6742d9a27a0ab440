/**
 * From a priced route (src/routing: a path, or a plan's legs) to the router's plan (RouterPlan.ts): the
 * one place where a pool's venue id becomes its index in the router's venue table (the venue file's
 * order, `routerVenuesOf`), pools become the addresses the router verifies, and
 * the order's amounts become step amounts, flags and limits. `quote` simulates what this builds and
 * `swap` sends it, so both execute the same steps.
 *
 * Leg layout, exactIn: the leg's first swap is paid by the taker (its exact input); every later swap
 * spends all the plan holds of its input (share 1e18), so taxes taken on the way never leave a step
 * short; only the leg's last swap pays the recipient. exactOut: a chain, last swap first, each swap
 * asking the one before it for exactly its input, every swap with its own most-input limit (the
 * launchpad curve, which has no exact output, pays the least input that reaches the amount at the
 * curve's reserves when it runs, so it too absorbs a price move up to its limit).
 * Legs run in order, so a hub token held by the router belongs to one leg at a time.
 */
import type { Address } from "viem"
import type { Hex } from "../../schema/Chain.js"
import type { VenueFile } from "../../schema/VenueFile.js"
import { registryOf } from "../../schema/VenueTable.js"
import type { RoutablePool } from "../math/Hop.js"
import type { HopFill, Path } from "../routing/Path.js"
import type { Plan, PlanLegFill } from "../routing/Plan.js"
import { type FundingCode, quoteTag, type RouterPlan, type RouterStep, SHARE_ALL, StepFlag } from "./RouterPlan.js"
import { type RouterVenues, stepVenue } from "./RouterVenues.js"

export { type RouterVenue, type RouterVenues, stepVenue, UnknownPlanVenue } from "./RouterVenues.js"

export interface PlanTerms {
  readonly recipient: Address
  readonly funding: FundingCode
  /** unix seconds */
  readonly deadline: bigint
  readonly quoteId: string
  /** Tolerance applied to the quoted output (exactIn) or input (exactOut) and to each step's limit. */
  readonly slippageBps: bigint
}

/** Venue id -> the router's venue (`Step.venue` = its index): the router deployed for `file` names
 * venue i of the file by index i (schema/VenueFile.ts). A pure function of the file. */
export const routerVenuesOf = (file: Pick<VenueFile, "venues">): RouterVenues =>
  new Map(file.venues.map((venue, index) => [venue.id, { index, family: venue.family, registry: registryOf(venue) }]))

const BPS = 10_000n

const lessSlippage = (amount: bigint, bps: bigint) => (amount * (BPS - bps)) / BPS
const plusSlippage = (amount: bigint, bps: bigint) => (amount * (BPS + bps) + BPS - 1n) / BPS

export type PoolOf = (id: Hex) => RoutablePool | undefined

export class UnknownPlanPool extends Error {
  constructor(readonly poolId: Hex) {
    super(`pool ${poolId} is not in the market the plan was priced on`)
  }
}

const stepOf = (fill: HopFill, poolOf: PoolOf, venues: RouterVenues) => {
  const pool = poolOf(fill.hop.poolId)
  if (pool === undefined) throw new UnknownPlanPool(fill.hop.poolId)
  return {
    pool,
    step: { ...stepVenue(pool, venues), tokenIn: fill.hop.tokenIn, tokenOut: fill.hop.tokenOut }
  }
}

/** exactIn: the taker pays the first swap, every later one spends all the plan holds of its input. */
const forwardSteps = (leg: PlanLegFill, poolOf: PoolOf, venues: RouterVenues, slippageBps: bigint) =>
  leg.fills.map((fill, i): RouterStep => {
    const { step } = stepOf(fill, poolOf, venues)
    const first = i === 0
    const last = i === leg.fills.length - 1
    return {
      ...step,
      flags: (first ? 0 : StepFlag.fromRouter) | (last ? 0 : StepFlag.toRouter),
      amount: first ? fill.amountIn : SHARE_ALL,
      limit: lessSlippage(fill.amountOut, slippageBps)
    }
  })

/**
 * exactOut: the router's chain, last hop first (exactly the leg's output, to the recipient); each step
 * after it delivers into the router exactly what the one before needs, down to the hop the taker pays.
 * Every step's limit is its quoted input plus the slippage.
 */
const chainSteps = (leg: PlanLegFill, poolOf: PoolOf, venues: RouterVenues, slippageBps: bigint) =>
  [...leg.fills].reverse().map((fill, i, reversed): RouterStep => {
    const { step } = stepOf(fill, poolOf, venues)
    const head = i === 0
    const linked = i < reversed.length - 1
    return {
      ...step,
      flags: StepFlag.exactOut | (linked ? StepFlag.fromRouter : 0) | (head ? 0 : StepFlag.toRouter),
      amount: head ? fill.amountOut : 0n,
      limit: plusSlippage(fill.amountIn, slippageBps)
    }
  })

const legSteps = (
  leg: PlanLegFill,
  side: Plan["side"],
  poolOf: PoolOf,
  venues: RouterVenues,
  slippageBps: bigint
): Array<RouterStep> =>
  side === "exactOut"
    ? chainSteps(leg, poolOf, venues, slippageBps)
    : forwardSteps(leg, poolOf, venues, slippageBps)

/** The router plan that executes `plan` (a single path, a split or a graph flow alike). */
export const routerPlanOf = (plan: Plan, poolOf: PoolOf, venues: RouterVenues, terms: PlanTerms): RouterPlan => ({
  quoteTag: quoteTag(terms.quoteId),
  sellToken: plan.tokenIn,
  buyToken: plan.tokenOut,
  recipient: terms.recipient,
  funding: terms.funding,
  exactOut: plan.side === "exactOut",
  amountIn: plan.side === "exactOut" ? plusSlippage(plan.amountIn, terms.slippageBps) : plan.amountIn,
  minAmountOut: plan.side === "exactOut" ? plan.amountOut : lessSlippage(plan.amountOut, terms.slippageBps),
  deadline: terms.deadline,
  steps: plan.legs.flatMap((leg) => legSteps(leg, plan.side, poolOf, venues, terms.slippageBps))
})

/**
 * An exact-input plan along one path with no output expectation (limits 0): what a probe such as the
 * safety round trip sends, where the amounts are what is measured rather than what is enforced.
 * `amountIn` may be the router's WHOLE_BALANCE ("all the taker holds of the sell token").
 */
export const probePlanOf = (
  path: Path,
  amountIn: bigint,
  poolOf: PoolOf,
  venues: RouterVenues,
  terms: Omit<PlanTerms, "slippageBps">
): RouterPlan => ({
  quoteTag: quoteTag(terms.quoteId),
  sellToken: path.tokenIn,
  buyToken: path.tokenOut,
  recipient: terms.recipient,
  funding: terms.funding,
  exactOut: false,
  amountIn,
  minAmountOut: 0n,
  deadline: terms.deadline,
  steps: path.hops.map((hop, i) => {
    const pool = poolOf(hop.poolId)
    if (pool === undefined) throw new UnknownPlanPool(hop.poolId)
    const last = i === path.hops.length - 1
    return {
      ...stepVenue(pool, venues),
      flags: (i === 0 ? 0 : StepFlag.fromRouter) | (last ? 0 : StepFlag.toRouter),
      tokenIn: hop.tokenIn,
      tokenOut: hop.tokenOut,
      amount: i === 0 ? amountIn : SHARE_ALL,
      limit: 0n
    }
  })
})

/**
 * The swap as the taker will pay for it: the funding chosen from its wallet (./Funding.ts), the router
 * plan with that funding, and the whole sequence simulated from the taker. Native funding is offered
 * only to a caller that named no `approval` (a named flow is honoured); and when a native-funded
 * simulation reverts for any reason but the price, the ERC-20 funded plan of the default flow is
 * simulated instead, so a native path that cannot execute never costs the taker the trade.
 */
import { Effect, Either } from "effect"
import type { Address } from "viem"
import type { SimCall } from "../../layers/Simulator.js"
import { encodeExecute, Funding, type FundingCode, planValue, type RouterPlan } from "../execution/RouterPlan.js"
import { chooseFunding, type FundingInput } from "./Funding.js"
import { simulateResetting } from "./TakerSimulation.js"

export interface FundedSwapInput {
  readonly funding: Omit<FundingInput, "allowNative">
  /** The caller named no `approval`: native funding may be chosen. */
  readonly nativeAllowed: boolean
  readonly planFor: (funding: FundingCode) => RouterPlan
  readonly block: bigint
  readonly taker: Address
  readonly router: Address
  /** Calls simulated in the block after the swap (./TakerSellBack.ts). */
  readonly after: ReadonlyArray<SimCall> | undefined
}

const attempt = (input: FundedSwapInput, allowNative: boolean) =>
  Effect.gen(function*() {
    const choice = yield* chooseFunding({ ...input.funding, allowNative })
    const routerPlan = input.planFor(choice.funding)
    const executeData = encodeExecute(routerPlan)
    // A token that refuses to change one non-zero allowance into another (USDT's rule) takes a reset to 0 first.
    const { wallet } = input.funding
    const { approvals, outcome } = yield* simulateResetting({
      block: input.block,
      taker: input.taker,
      router: input.router,
      approvals: choice.approvals,
      pendingPermit: choice.permit === undefined
        ? undefined
        : { permit2: input.funding.permit2!, permit: choice.permit },
      swap: { data: executeData, value: planValue(routerPlan) },
      exactOut: routerPlan.exactOut,
      ...(input.after === undefined ? {} : { after: input.after })
    }, choice.funding === Funding.permit2 ? wallet.allowanceToPermit2 : wallet.allowanceToRouter)
    return { ...choice, approvals, routerPlan, executeData, outcome }
  })

export const fundedSwap = Effect.fn("Swap.funded")(function*(input: FundedSwapInput) {
  const first = yield* attempt(input, input.nativeAllowed)
  const nativeFailed = first.funding === Funding.native && first.outcome._tag === "Reverted" &&
    !first.outcome.priceMoved
  if (!nativeFailed) return first
  // The ERC-20 plan needs the ERC-20 balance (on Arc the same balance); without it, the native failure stands.
  const fallback = yield* Effect.either(attempt(input, false))
  return Either.isRight(fallback) && fallback.right.outcome._tag === "Executed" ? fallback.right : first
})

/**
 * From a live quote to the taker's unsigned transactions: the plan priced again on the current block,
 * the taker's wallet as it is, the approvals the chosen flow still needs, and the whole sequence
 * simulated from the taker before anything is returned. Failures are the taker's to see: the price
 * moved (`quote_stale`), the wallet cannot pay (`insufficient_balance`), the chain refuses the swap
 * (`swap_reverts`), the plan cannot run through the router (`not_executable`).
 *
 * Funding (./FundedSwap.ts): when the caller names no `approval`, a USDC sell is paid with native value
 * when the native balance covers it and the gas (no approval at all), falling back to Permit2 when that
 * simulation reverts; otherwise `approve` approves the router for the exact amount, and `permit2`
 * approves Permit2 once (unlimited) and asks for a `PermitSingle` signature for the exact amount
 * unless Permit2 already allows the router enough until the deadline. With `approve`, an exact-out swap
 * that spends less than the maximum leaves the rest of that approval to the router (docs/router.md).
 */
import { Clock, Effect } from "effect"
import { type Address, getAddress, type Hex } from "viem"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { Venues } from "../../layers/Venues.js"
import { invalidField, NotExecutable, QuoteStale } from "../../schema/Errors.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"
import { routerPlanOf, routerVenuesOf } from "../execution/FromRoute.js"
import { encodeExecuteWithPermit, type PermitSingle, planHashOf, planValue } from "../execution/RouterPlan.js"
import { readTakerWallet } from "../execution/TakerWallet.js"
import { Launchpads } from "../indexer/Launchpads.js"
import { GasPrice } from "../quote/GasPrice.js"
import { curvePoolsOf } from "../routing/CurvePools.js"
import { marketFromIndex } from "../routing/Market.js"
import { TokenSearch } from "../search/TokenSearch.js"
import { executableRecord } from "./Fallback.js"
import { fundedSwap } from "./FundedSwap.js"
import { gasLimit, PERMIT_SIGNATURE_GAS } from "./Gas.js"
import { rejudge } from "./Rejudge.js"
import { keepsPromise, repricePlan } from "./Reprice.js"
import { revertedSwap } from "./Reverted.js"
import { takerSellBack } from "./TakerSellBack.js"

export interface BuildTerms {
  readonly taker: Address
  readonly recipient: Address
  /** The flow the caller named; none lets native value pay a USDC sell the native balance covers. */
  readonly approval: "permit2" | "approve" | undefined
  readonly deadlineSec: number
  /** An open permit round's permit, reused when it still fits, so repeated swaps ask for one signature. */
  readonly openPermit: PermitSingle | undefined
}

export interface BuiltTransaction {
  readonly to: Address
  readonly data: Hex
  readonly value: bigint
  readonly gas: bigint
  readonly purpose: "approve" | "swap" | "swap_placeholder"
}

export interface Built {
  readonly block: number
  readonly deadline: bigint
  readonly approvals: ReadonlyArray<BuiltTransaction>
  readonly swap: BuiltTransaction
  /** The permit to sign, when one is needed; then `swap` is the placeholder. */
  readonly permit: PermitSingle | undefined
  /** `execute(plan)` calldata: what `swap/tx` wraps with the signed permit. */
  readonly executeData: Hex
  readonly amountOutSimulated: bigint
  readonly minAmountOut: bigint
  /** The router's `planHash` of the plan built: what `receipt` binds a fill to. */
  readonly planHash: Hex
}

export const buildSwap = Effect.fn("Swap.build")(function*(quoted: QuoteRecord, terms: BuildTerms) {
  const deployment = yield* Deployment
  const venues = yield* Venues
  const usdc = usdcOf(deployment)
  const router = deployment.contracts["router"]
  const permit2 = deployment.contracts["permit2"]
  // Permit2 is the flow when the caller names none.
  const flow = terms.approval ?? "permit2"
  if (router === undefined || (flow === "permit2" && permit2 === undefined)) {
    return yield* new NotExecutable({ message: "no router contract is configured on this deployment" })
  }
  const record = executableRecord(quoted, (id) => {
    const venue = venues.byId(id)
    return venue !== undefined && venue.executable && venue.enabled
  })
  if (record === undefined) {
    return yield* new NotExecutable({
      message: "the quoted plan cannot be executed by the router, and no priced candidate of the quote can",
      hint: "quote again without the venues that cannot execute"
    })
  }

  const { snapshot } = yield* (yield* TokenSearch).view
  const block = snapshot.state.block
  const launchpads = yield* (yield* Launchpads).constants
  const curves = curvePoolsOf(snapshot.state, launchpads, [record.sell, record.buy], usdc)
  const market = marketFromIndex(snapshot.state, curves)
  const repriced = repricePlan(record, market, usdc)
  if (repriced._tag === "Unpriced") {
    return yield* new QuoteStale({
      message: `the quoted pools no longer fill the plan at block ${block} (${repriced.failure._tag})`
    })
  }
  const plan = repriced.plan
  if (repriced._tag === "Priced" && !keepsPromise(record, plan)) {
    return yield* new QuoteStale({
      message: record.side === "exactIn"
        ? `the price moved beyond the slippage: the plan now gives ${plan.amountOut}, below the minimum ${record.minAmountOut}`
        : `the price moved beyond the slippage: the plan now costs ${plan.amountIn}, above the maximum ${record.maxAmountIn}`
    })
  }

  const routerVenues = routerVenuesOf(deployment.venues)
  const sellToken = record.sell
  const spend = record.side === "exactIn" ? record.amountIn : record.maxAmountIn
  // The verdict's simulation and the wallet's reads are independent round trips: sent together.
  const [, wallet] = yield* Effect.all([
    rejudge(record, market, block),
    readTakerWallet({ taker: terms.taker, sellToken, usdc, router, permit2, block: BigInt(block) })
  ], { concurrency: "unbounded" })
  if (wallet.hasCode) {
    return yield* invalidField(["taker"], {
      expected: "an externally owned account",
      code: "taker_has_code",
      message: "the taker has code (a contract or a delegated wallet): swaps are built for wallets that send directly"
    })
  }

  const nowMs = yield* Clock.currentTimeMillis
  // The chain's clock may run ahead of ours (a devnet after a time jump): deadlines count from the later.
  const nowSec = Math.max(Math.floor(nowMs / 1000), snapshot.state.time)
  const deadline = BigInt(nowSec + terms.deadlineSec)
  const sellBack = yield* takerSellBack({ record, market, ...terms, router, venues: routerVenues, usdc })
  const funded = yield* fundedSwap({
    funding: {
      wallet,
      approval: flow,
      sellToken,
      usdc,
      spend,
      router,
      permit2,
      deadline,
      nowSec,
      gasUnits: record.gasUnits,
      gasPriceWei: yield* (yield* GasPrice).at(block),
      openPermit: terms.openPermit
    },
    nativeAllowed: terms.approval === undefined,
    planFor: (funding) => ({
      ...routerPlanOf(plan, market.pool, routerVenues, {
        recipient: terms.recipient,
        funding,
        deadline,
        quoteId: record.quoteId,
        slippageBps: BigInt(record.request.slippageBps)
      }),
      amountIn: spend,
      minAmountOut: record.minAmountOut
    }),
    block: BigInt(block),
    taker: terms.taker,
    router,
    after: sellBack?.calls
  })
  const { approvals, executeData, outcome, permit, routerPlan } = funded
  if (outcome._tag === "Reverted") return yield* revertedSwap(outcome, "swap", block)
  if (sellBack !== undefined) yield* sellBack.judge(outcome)

  const swapTransaction: BuiltTransaction = permit === undefined
    ? { to: router, data: executeData, value: planValue(routerPlan), gas: gasLimit(outcome.swapGas), purpose: "swap" }
    : {
      to: router,
      // Deadline 0 makes the placeholder revert if sent: only `swap/tx`'s transaction carries the plan.
      data: encodeExecuteWithPermit({ ...routerPlan, deadline: 0n }, permit, "0x"),
      value: 0n,
      gas: gasLimit(outcome.swapGas + outcome.permitGas + PERMIT_SIGNATURE_GAS),
      purpose: "swap_placeholder"
    }
  const built: Built = {
    block,
    deadline,
    approvals: approvals.map((approval, i) => ({
      ...approval,
      to: getAddress(approval.to),
      value: 0n,
      gas: gasLimit(outcome.approvalGas[i]!),
      purpose: "approve"
    })),
    swap: swapTransaction,
    permit,
    executeData,
    amountOutSimulated: outcome.amountOut,
    minAmountOut: record.minAmountOut,
    planHash: planHashOf(routerPlan)
  }
  return built
})

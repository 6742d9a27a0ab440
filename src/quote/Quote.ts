/**
 * `quote`: the best plan for a trade across every venue, priced from the in-memory index at one block,
 * with every candidate route, the sell-back verdict, the taker's readiness when a taker is sent, and a
 * plain `next`. The quote is stored (QuoteStore) with everything `swap` needs.
 *
 * Reads the chain only for the gas price (once per block, src/quote/GasPrice.ts) and, with a taker,
 * for readiness (one batched round trip).
 */
import { Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"
import { formatUnits } from "viem"
import { AppConfig } from "../../layers/AppConfig.js"
import { contractOf, Deployment, usdcOf } from "../../layers/Deployment.js"
import { swapPrice } from "../../layers/payment/Prices.js"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { Venues } from "../../layers/Venues.js"
import { type Hex, lowerAddress } from "../../schema/Chain.js"
import { InsufficientLiquidity, NoRoute } from "../../schema/Errors.js"
import type { QuoteResponse } from "../../schema/Quote.js"
import type { Fallback, QuoteRecord, StoredEdge } from "../../schema/QuoteRecord.js"
import type { QuoteRequest } from "../../schema/QuoteRequest.js"
import { Launchpads } from "../indexer/Launchpads.js"
import { usdcBeforeGraduation } from "../math/LaunchpadCurve.js"
import { PRICE_SCALE, usdOf } from "../pricing/Usd.js"
import { listedHubs } from "../routing/Candidates.js"
import { checksumOf } from "../routing/Checksum.js"
import { curvePoolsOf, curvePrice } from "../routing/CurvePools.js"
import { type Candidate, findRoute, type RouteRequest } from "../routing/FindRoute.js"
import { defaultHopGas, defaultPathGas, type GasModel } from "../routing/Gas.js"
import { type Market, marketFromIndex } from "../routing/Market.js"
import type { Path } from "../routing/Path.js"
import { type PlanEdgeFill, planEdges } from "../routing/Plan.js"
import { planShape } from "../routing/PlanShape.js"
import { judgedToken, measureSafety, taxesOf } from "../safety/QuoteVerdict.js"
import { GasPrice } from "./GasPrice.js"
import { HookedPools } from "./HookedPools.js"
import { maxAmountInOf, minAmountOutOf, planFees, type PresentContext, presentRoute } from "./Present.js"
import { readReadiness } from "./Readiness.js"
import { resolveQuoteRequest, sideOf } from "./Request.js"
import { stopReason } from "./Stop.js"

const storedEdge = (edge: PlanEdgeFill): StoredEdge => ({
  path: edge.leg,
  venue: edge.hop.venue,
  kind: edge.hop.kind,
  poolId: edge.hop.poolId,
  tokenIn: edge.hop.tokenIn,
  tokenOut: edge.hop.tokenOut,
  amountIn: edge.amountIn,
  amountOut: edge.amountOut
})

const FALLBACKS = 3

/** The best few executable candidates priced alone for the whole order, for `swap` to fall back to. */
const fallbacksOf = (
  candidates: ReadonlyArray<Candidate>,
  executable: (path: Path) => boolean,
  side: QuoteRequest["side"],
  slippageBps: number
): Array<Fallback> =>
  candidates
    .flatMap((candidate) =>
      candidate.run._tag === "Filled" && executable(candidate.path) ? [{ ...candidate.run, path: candidate.path }] : []
    )
    .sort((a, b) => side === "exactIn" ? Number(b.amountOut - a.amountOut) : Number(a.amountIn - b.amountIn))
    .slice(0, FALLBACKS)
    .map((run) => {
      const priced = { side, amountIn: run.amountIn, amountOut: run.amountOut }
      return {
        edges: run.fills.map((fill) => storedEdge({ ...fill, leg: 0 })),
        amountIn: run.amountIn,
        amountOut: run.amountOut,
        minAmountOut: minAmountOutOf(priced, slippageBps),
        maxAmountIn: maxAmountInOf(priced, slippageBps)
      }
    })

/** USDC the pair's curves still take before graduation, for the error that names it. */
const curveRoom = (market: Market, tokens: ReadonlyArray<Hex>): string =>
  tokens.flatMap((token) => {
    const pool = market.pool(token)
    return pool?.kind === "curve" ? [usdcBeforeGraduation(pool.curve).toString()] : []
  }).join(", ")

export const quote = Effect.fn("Quote.run")(function*(request: QuoteRequest) {
  const deployment = yield* Deployment
  const venues = yield* Venues
  const config = yield* AppConfig
  const usdc = usdcOf(deployment)
  const { amount, buy, buyToken, sell, sellToken, view } = yield* resolveQuoteRequest(request)
  const { snapshot } = view
  const named = request.venues ?? []
  const side = request.side

  const block = snapshot.state.block
  const gasPriceWei = yield* (yield* GasPrice).at(block)
  // The pair's own launchpad curves (a curve trades only against USDC, so no other curve can be on a path).
  const launchpads = yield* (yield* Launchpads).constants
  const curves = curvePoolsOf(snapshot.state, launchpads, [sellToken, buyToken], usdc)
  const price = (token: Hex) => view.valuation.price(token) ?? curvePrice(curves, token)
  const objectivePrice = price(side === "exactIn" ? buyToken : sellToken)
  const gas: GasModel = {
    perHop: defaultHopGas,
    perPath: defaultPathGas,
    gasPriceWei,
    tokenPrice: objectivePrice === undefined || objectivePrice === 0n
      ? null
      : { tokenRaw: PRICE_SCALE, usdcRaw: objectivePrice }
  }
  const excluded = new Set(request.excludeVenues ?? [])
  // Operator-disabled venues are skipped unless the caller names them; then the plan may use them but
  // is not executable (spec rule 3).
  const allowVenue = (id: string) =>
    (named.length === 0 || named.includes(id)) && !excluded.has(id) &&
    (venues.byId(id)?.enabled !== false || named.includes(id))
  const hubs = [
    usdc,
    ...listedHubs(deployment.tokenList.tokens, deployment.chainId)
  ]
  const market = marketFromIndex(snapshot.state, curves)
  const search: RouteRequest = {
    market,
    tokenIn: sellToken,
    tokenOut: buyToken,
    side,
    amount,
    hubs: [...new Set(hubs)],
    maxHops: request.maxHops,
    maxSplits: request.maxSplits,
    allowVenue,
    gas
  }
  const hooked = yield* HookedPools
  const route = (request: RouteRequest) => hooked.price(request, findRoute(request), block)
  const untaxed = yield* route(search)
  if (untaxed.best === null) {
    const result = untaxed
    const short = result.candidates.some((c) => c.run._tag === "Unfillable")
    if (result.candidates.length > 0 && short) {
      const curveLeft = result.candidates.some((c) => c.run._tag === "Unfillable" && c.run.reason === "curve_complete")
      return yield* new InsufficientLiquidity({
        message: curveLeft
          ? `the order is larger than what the launchpad curve sells before graduation (curve_complete), and no other path between ${sell.symbol} and ${buy.symbol} fills it`
          : `no path between ${sell.symbol} and ${buy.symbol} has the liquidity for this order`,
        hint: curveLeft
          ? `quote a smaller amount: the curve takes ${
            curveRoom(market, [sellToken, buyToken])
          } USDC (base units) more before it graduates`
          : "quote a smaller amount"
      })
    }
    return yield* new NoRoute({
      message: result.candidates.length === 0
        ? `no pool with liquidity connects ${sell.symbol} and ${buy.symbol} within ${request.maxHops} hop(s)`
        : `the paths between ${sell.symbol} and ${buy.symbol} cannot be priced exactly (hooked or dynamic-fee pools)`,
      ...(result.candidates.length === 0 && request.maxHops < 3 ? { hint: "a larger `maxHops` may find a path" } : {})
    })
  }

  const symbolOf = (address: Hex) => (sideOf(view, address)?.symbol ?? address)
  const usdValue = (plan: NonNullable<typeof untaxed.best>) => {
    const valueIn = price(sellToken)
    const valueOut = price(buyToken)
    return valueIn !== undefined
      ? usdOf(plan.amountIn, valueIn)
      : valueOut !== undefined
      ? usdOf(plan.amountOut, valueOut)
      : 0n
  }
  const safety = yield* measureSafety(untaxed.best, usdc, search, usdValue(untaxed.best), {
    block,
    epoch: snapshot.epoch
  }, symbolOf)
  // A measured transfer tax changes every amount: route again with it.
  const taxes = taxesOf(safety, judgedToken(untaxed.best, usdc))
  const taxed = taxes === undefined ? undefined : yield* route({ ...search, taxes })
  const result = taxed?.best == null ? untaxed : taxed
  const plan = result.best!

  const router = contractOf(deployment, "router")
  const executable = (path: Path) =>
    router !== undefined && path.hops.every((hop) => {
      const venue = venues.byId(hop.venue)
      return venue !== undefined && venue.executable && venue.enabled
    })
  const label = (address: Hex) => {
    const known = address === sellToken ? sell : address === buyToken ? buy : sideOf(view, address)
    return { symbol: known?.symbol ?? "", decimals: known?.decimals ?? 18 }
  }
  const context: PresentContext = {
    usdc,
    token: label,
    pool: market.pool,
    gas,
    price,
    executable,
    buyTaxBps: safety?.buyTaxBps ?? 0,
    ageBlocks: Math.max(0, snapshot.head - block)
  }

  const orderUsdMicro = usdValue(plan)
  const fee = swapPrice(config.prices, orderUsdMicro)

  const shape = planShape(plan, context)
  const bestExecutable = plan.legs.every((leg) => executable(leg.path))
  // exactOut: the asked amount is the floor (the plan may deliver a few units more).
  const minOut = side === "exactOut" ? amount : minAmountOutOf(plan, request.slippageBps)
  const maxIn = maxAmountInOf(plan, request.slippageBps)
  const readiness = request.taker === undefined ? undefined : yield* readReadiness({
    taker: lowerAddress(request.taker),
    sellToken,
    usdc,
    amountIn: maxIn,
    block,
    blockTime: snapshot.state.time,
    router,
    permit2: contractOf(deployment, "permit2"),
    gasUnits: plan.gasUnits,
    gasPriceWei,
    swapFee: fee
  })

  const warnings: Array<QuoteResponse["warnings"][number]> = []
  if (!bestExecutable) warnings.push("graph_execution_unavailable")
  if (safety === null) warnings.push("safety_not_measured")
  if (result.candidates.some((c) => c.run._tag === "NeedsSimulation")) warnings.push("unpriced_candidates")
  if (gas.tokenPrice === null) warnings.push("gas_not_netted")
  if (plan.legs.some((leg) => leg.fills.some((fill) => fill.simulated))) warnings.push("priced_by_simulation")
  const stop = stopReason({ safety, executable: bestExecutable, ready: readiness?.ready }) !== undefined

  const now = yield* Clock.currentTimeMillis
  const expiresAtMs = now + request.ttlSec * 1_000
  const quoteId = `q_${randomBytes(16).toString("hex")}`
  const network = `eip155:${deployment.chainId}`
  const record: QuoteRecord = {
    quoteId,
    version: 0,
    createdAtMs: now,
    expiresAtMs,
    block,
    network,
    request,
    sell: sellToken,
    buy: buyToken,
    side,
    plan: {
      type: shape.type,
      executable: bestExecutable,
      edges: planEdges(plan).map(storedEdge)
    },
    amountIn: plan.amountIn,
    amountOut: plan.amountOut,
    minAmountOut: minOut,
    maxAmountIn: maxIn,
    gasUnits: plan.gasUnits,
    fallbacks: bestExecutable ? [] : fallbacksOf(result.candidates, executable, side, request.slippageBps),
    safety,
    orderUsdMicro,
    swapPrice: fee,
    attempts: { swapFailures: 0, replacementIssued: false, swapPaid: false },
    permitRound: null,
    swap: null,
    receiptReads: { count: 0, lastAtMs: 0, final: null }
  }
  yield* (yield* QuoteStore).put(record)

  const response: QuoteResponse = {
    quoteId,
    network,
    block,
    expiresAt: new Date(expiresAtMs).toISOString(),
    side,
    slippageBps: request.slippageBps,
    sell: {
      address: checksumOf(sellToken),
      symbol: sell.symbol,
      decimals: sell.decimals,
      amount: formatUnits(plan.amountIn, sell.decimals),
      amountRaw: plan.amountIn.toString(),
      verification: sell.verification,
      state: sell.state
    },
    buy: {
      address: checksumOf(buyToken),
      symbol: buy.symbol,
      decimals: buy.decimals,
      verification: buy.verification,
      state: buy.state,
      discovered: buy.discovered
    },
    routes: result.candidates.map((candidate) => presentRoute(context, candidate)),
    best: {
      ...shape,
      executable: bestExecutable,
      amountIn: formatUnits(plan.amountIn, sell.decimals),
      amountInRaw: plan.amountIn.toString(),
      amountOutQuoted: formatUnits(plan.amountOut, buy.decimals),
      amountOutQuotedRaw: plan.amountOut.toString(),
      minAmountOut: formatUnits(minOut, buy.decimals),
      minAmountOutRaw: minOut.toString(),
      ...(side === "exactOut" ? { maxAmountIn: formatUnits(maxIn, sell.decimals) } : {}),
      fees: planFees(context, plan)
    },
    safety,
    ...(readiness === undefined ? {} : { readiness }),
    gasUsdc: formatUnits(plan.gasUsdcRaw, 6),
    next: stop ? "stop" : "swap",
    warnings
  }
  return response
})

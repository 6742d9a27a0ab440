/**
 * The safety verdict of a token on one route: a buy and a sell-back from a fresh wallet through the
 * service's own router (the path `swap` would execute), and the same after longer holds (./Horizons.ts),
 * simulated at the quote's block in one `eth_simulateV1` request, with a bounded search for a
 * per-transaction cap, and the owner's powers measured beside it (../powers/OwnerPowers.ts). Verdicts are cached
 * per token, route, size and block, within one epoch of the index (a rollback makes a block number name
 * another block); a verdict is only ever reported for the block it was measured at.
 */
import { Effect } from "effect"
import { type Address, formatUnits } from "viem"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Deployment } from "../../../layers/Deployment.js"
import { judged } from "../../../layers/metrics/Metrics.js"
import { Simulator } from "../../../layers/Simulator.js"
import type { Hex } from "../../../schema/Chain.js"
import type { SafetyVerdict } from "../../../schema/Token.js"
import { routerVenuesOf } from "../../execution/FromRoute.js"
import { ChainIndex } from "../../indexer/ChainIndex.js"
import type { Path } from "../../routing/Path.js"
import { routeIdOf } from "../../routing/PlanShape.js"
import { OwnerPowers } from "../powers/OwnerPowers.js"
import { requestCache } from "../RequestCache.js"
import {
  buyImpactBps,
  buyTaxBps,
  expectedBuyOut,
  poolFeesBps,
  type PoolOf,
  reversePath,
  sellTaxBps
} from "./Expected.js"
import { HORIZONS } from "./Horizons.js"
import { v2SellIntake } from "./PoolIntake.js"
import { findCap } from "./SizeLimit.js"
import { tripsOn } from "./Trips.js"
import { decide, inconclusive, type Measurement } from "./Verdict.js"

export interface SafetyRequest {
  /** The token judged: the buy path's last token. */
  readonly token: Hex
  /** USDC → token, as route search found it. */
  readonly path: Path
  /** Size of the checked buy in USDC base units (the quote's size, or a standard probe). */
  readonly amountInUsdc: bigint
  /** The block the pools were read at; the simulation builds on it. */
  readonly block: bigint
  /** Pools as indexed at `block`. */
  readonly pools: PoolOf
  /** Symbol of a token, for the route's `pair` label. */
  readonly symbolOf?: (address: Hex) => string
}

/** Start of an `inconclusive` reason when the node did not answer: worth measuring again later. */
export const SIMULATION_UNAVAILABLE = "simulation unavailable"

export class SafetyCheck extends Effect.Service<SafetyCheck>()("SafetyCheck", {
  effect: Effect.gen(function*() {
    const simulator = yield* Simulator
    const deployment = yield* Deployment
    const { contracts } = deployment
    const { safety } = yield* AppConfig
    const usdc = contracts["usdc"]?.toLowerCase()
    const router = contracts["router"]
    const pinned = new Set([...(usdc === undefined ? [] : [usdc]), ...safety.pinnedAssets])
    const venues = routerVenuesOf(deployment.venues)
    const powers = yield* OwnerPowers
    const index = yield* ChainIndex

    const { buyGoesThrough, roundTrip } = tripsOn(simulator, venues, safety.horizons ? HORIZONS : [])

    const measure = Effect.fn("SafetyCheck.measure")(function*(request: SafetyRequest, routerAddress: Address) {
      const fits = buyGoesThrough(request, routerAddress)
      const asked = request.amountInUsdc
      const probe = asked * BigInt(safety.capProbeMultiple)
      const probeFills = expectedBuyOut(request.path, probe, request.pools) !== undefined
      const [firstTrip, probeOk] = yield* Effect.all(
        [roundTrip(request, routerAddress, asked), probeFills ? fits(probe) : Effect.succeed(true)],
        { concurrency: "unbounded" }
      )
      let trip = firstTrip
      let amountIn = asked
      let cap: bigint | undefined
      if (trip.bought._tag === "BuyFailed") {
        const small = asked / 1_000n > 1_000n ? asked / 1_000n : 1_000n
        if (small < asked && (yield* fits(small))) {
          cap = yield* findCap(fits, small, asked)
          amountIn = cap
          trip = yield* roundTrip(request, routerAddress, cap)
        }
      } else if (!probeOk) {
        cap = yield* findCap(fits, asked, probe)
      }
      const depthSize = amountIn > safety.illiquidReferenceUsdc ? amountIn : safety.illiquidReferenceUsdc
      const expectedOut = expectedBuyOut(request.path, amountIn, request.pools)
      const measurement: Measurement = {
        buy: trip.bought,
        sell: trip.sold,
        later: trip.later,
        amountIn,
        buyTaxBps: trip.bought._tag === "Bought"
          ? buyTaxBps(expectedOut, trip.bought.received)
          : undefined,
        sellTaxBps: trip.sold?._tag === "Sold"
          ? sellTaxBps({
            path: request.path,
            amountIn,
            sent: trip.sold.sent,
            usdcOut: trip.sold.usdcOut,
            pools: request.pools,
            intake: v2SellIntake(reversePath(request.path), trip.sold.logs, routerAddress, request.pools)
          })
          : undefined,
        expectedBuyOut: expectedOut,
        poolFeesBps: poolFeesBps(request.path, request.pools),
        buyImpactBps: buyImpactBps(request.path, amountIn, request.pools),
        depthImpactBps: buyImpactBps(request.path, depthSize, request.pools),
        maxBuyUsdc: cap === undefined ? undefined : formatUnits(cap, 6)
      }
      return measurement
    })

    const run = Effect.fn("SafetyCheck.check")(function*(request: SafetyRequest) {
      const last = request.path.hops[request.path.hops.length - 1]!
      const symbol = request.symbolOf ?? ((address: Hex) => address)
      const base = {
        routeId: routeIdOf(request.path),
        route: { venue: last.venue, poolId: last.poolId, pair: `${symbol(last.tokenOut)}/${symbol(last.tokenIn)}` },
        scope: { block: Number(request.block), walletProfile: "fresh_eoa" }
      }
      if (pinned.has(request.token.toLowerCase())) {
        return {
          ...base,
          verdict: "pinned",
          canSell: true,
          buyTaxBps: 0,
          sellTaxBps: 0,
          buyImpactBps: buyImpactBps(request.path, request.amountInUsdc, request.pools) ?? null,
          roundTripLossBps: null
        } satisfies SafetyVerdict as SafetyVerdict
      }
      if (router === undefined) return inconclusive(base, "no router is configured on this chain")
      if (request.path.tokenIn.toLowerCase() !== usdc || request.path.tokenOut.toLowerCase() !== request.token) {
        return inconclusive(base, "the checked path must lead from USDC to the token")
      }
      if (request.amountInUsdc <= 0n) return inconclusive(base, "the checked size must be positive")
      return yield* Effect.all([measure(request, router), powers.of(request)], { concurrency: "unbounded" }).pipe(
        Effect.map(([measurement, found]) => ({ ...decide(base, measurement, safety), ...found })),
        Effect.catchAll((error) =>
          Effect.succeed(
            inconclusive(
              base,
              `${SIMULATION_UNAVAILABLE}: ${error.message}${error.hint === undefined ? "" : ` (${error.hint})`}`
            )
          )
        ),
        // A path naming a pool the snapshot lacks cannot be turned into a plan: say so, do not fail the quote.
        Effect.catchAllDefect((defect) =>
          Effect.succeed(inconclusive(base, `the route could not be simulated: ${String(defect)}`))
        )
      )
    })

    const cache = yield* requestCache({
      capacity: safety.cacheCapacity,
      timeToLive: "10 minutes",
      lookup: (request: SafetyRequest) => judged(run(request))
    })

    /** The verdict of `request.token` on `request.path` at `request.block`, measured once per size. */
    const check = (request: SafetyRequest): Effect.Effect<SafetyVerdict> =>
      Effect.flatMap(index.snapshot, ({ epoch }) => {
        const id = `${request.token.toLowerCase()}|${
          routeIdOf(request.path)
        }|${request.amountInUsdc}|${epoch}@${request.block}`
        // A node that did not answer says nothing of the token: ask again next time, do not remember it.
        return cache.get(id, request).pipe(
          Effect.tap((verdict) =>
            verdict.reason?.startsWith(SIMULATION_UNAVAILABLE) === true ? cache.invalidate(id) : Effect.void
          )
        )
      })

    return { check }
  }),
  // `Default` builds its Simulator; beside `Simulator.Default` in one layer graph the two share one (`swap` uses it).
  dependencies: [Simulator.Default, OwnerPowers.Default]
}) {}

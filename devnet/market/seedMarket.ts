/**
 * The seeded market, phase by phase on the backdated clock: tokens at genesis, pools, holders,
 * launchpad activity, then two hours of swaps (the bootstrap then brings the chain to the present).
 */
import { Effect } from "effect"
import type { Address } from "viem"
import type { Clock } from "./clock.js"
import type { Market } from "./context.js"
import { launchSpecs } from "./data/launches.js"
import { type PoolSpec, poolSpecs } from "./data/pools.js"
import { deployTokens } from "./deployTokens.js"
import { historySteps } from "./history.js"
import { fundHolders } from "./holders.js"
import { launchSteps } from "./launch.js"
import { seedPancakeV3 } from "./seedPancakeV3.js"
import { seedV2 } from "./seedV2.js"
import { seedV3 } from "./seedV3.js"
import { seedV4 } from "./seedV4.js"
import { runSteps } from "./steps.js"

const seedPool = (market: Market, spec: PoolSpec) => {
  switch (spec.venue) {
    case "v2":
      return seedV2(market, spec)
    case "v3":
      return seedV3(market, spec.pair, spec.fee, spec.positions, spec.fork === true)
    case "pancake-v3":
      return seedPancakeV3(market, spec.pair, spec.fee, spec.positions)
    case "v4":
      return seedV4(market, spec.pair, spec.fee, spec.tickSpacing, spec.hook, spec.positions)
  }
}

/** Launchpad steps older than this run before the swap history, the rest after it. */
const HISTORY_STARTS_MINUTES_AGO = 120

export const seedMarket = Effect.fn("seedMarket")(
  function*(market: Market, clock: Clock, clients: ReadonlyArray<Address>) {
    yield* deployTokens(market)
    yield* clock.at(355 * 60)
    yield* Effect.forEach(poolSpecs, (spec) => seedPool(market, spec), { discard: true })
    yield* clock.at(350 * 60)
    yield* fundHolders(market, clients)
    const launches = launchSpecs.flatMap((spec) => launchSteps(market, clients, spec))
    yield* runSteps(clock, launches.filter((step) => step.minutesAgo > HISTORY_STARTS_MINUTES_AGO))
    yield* runSteps(clock, historySteps(market, clients))
    yield* runSteps(clock, launches.filter((step) => step.minutesAgo <= HISTORY_STARTS_MINUTES_AGO))
  }
)

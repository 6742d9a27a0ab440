/**
 * The simulations a verdict is made of: a buy alone (does this size go through?), and the measured
 * round trip with, in the same `eth_simulateV1` request, the same trip after each horizon's wait
 * (./Horizons.ts). Every trip from its own fresh wallet, through the router, as `swap` would execute.
 */
import { Effect } from "effect"
import type { Address } from "viem"
import type { Simulator } from "../../../layers/Simulator.js"
import type { Hex } from "../../../schema/Chain.js"
import { probePlanOf, type RouterVenues } from "../../execution/FromRoute.js"
import { Funding, WHOLE_BALANCE } from "../../execution/RouterPlan.js"
import type { Path } from "../../routing/Path.js"
import { type PoolOf, reversePath } from "./Expected.js"
import { byHorizon, type Horizon, readTrips, schedule } from "./Horizons.js"
import { buyCalls, freshWallet, readBuy, SIMULATED_DEADLINE, walletFunding } from "./RoundTrip.js"

/** What a trip is made on: the token, its USDC → token path, the pools and the block. */
export interface TripTarget {
  readonly token: Hex
  readonly path: Path
  readonly pools: PoolOf
  readonly block: bigint
}

export const tripsOn = (
  simulator: Simulator["Type"],
  venues: RouterVenues,
  horizons: ReadonlyArray<Horizon>
) => {
  const plans = (target: TripTarget, wallet: Address, amountIn: bigint) => {
    const terms = { recipient: wallet, deadline: SIMULATED_DEADLINE, quoteId: "safety" }
    return {
      buy: probePlanOf(target.path, amountIn, target.pools, venues, { ...terms, funding: Funding.native }),
      sell: probePlanOf(reversePath(target.path), WHOLE_BALANCE, target.pools, venues, {
        ...terms,
        funding: Funding.approval
      })
    }
  }

  /** Buy alone, from its own fresh wallet: does a buy of this size go through? */
  const buyGoesThrough = (target: TripTarget, router: Address) => (amountIn: bigint) => {
    const wallet = freshWallet()
    const { buy } = plans(target, wallet, amountIn)
    return simulator.simulate({
      block: target.block,
      blocks: [buyCalls(router, wallet, target.token, buy)],
      balances: [{ address: wallet, wei: walletFunding(buy) }]
    }).pipe(Effect.map(([block]) => readBuy(router, wallet, block ?? [])._tag === "Bought"))
  }

  /** The measured round trip and, in the same request, the same trip after each horizon's wait. */
  const roundTrip = (target: TripTarget, router: Address, amountIn: bigint) =>
    Effect.gen(function*() {
      const trips = [undefined, ...horizons].map(() => {
        const wallet = freshWallet()
        return { wallet, ...plans(target, wallet, amountIn) }
      })
      const { blocks, spacing } = schedule(router, target.token, trips, horizons)
      const results = yield* simulator.simulate({
        block: target.block,
        blocks,
        spacing,
        balances: trips.map(({ buy, wallet }) => ({ address: wallet, wei: walletFunding(buy) }))
      })
      const outcomes = readTrips(router, trips, results)
      return { ...outcomes[0]!, later: byHorizon(outcomes, horizons) }
    })

  return { buyGoesThrough, roundTrip }
}

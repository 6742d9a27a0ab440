/**
 * A token's verdicts at one snapshot's block: `SafetyCheck` on its best few USDC routes (./Routes.ts)
 * at the scan's probe size, one route at a time. The background scan measures tokens this way off the
 * request path, and `search` measures a result this way when the verdict it has no longer stands.
 * USDC and `PINNED_ASSETS` are never simulated; a token with no exactly priced USDC path (or only
 * hooked ones) that the router can execute stays unmeasured.
 */
import { Effect, HashMap, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { Venues } from "../../layers/Venues.js"
import type { Hex } from "../../schema/Chain.js"
import type { SafetyVerdict } from "../../schema/Token.js"
import type { IndexSnapshot } from "../indexer/ChainIndex.js"
import type { IndexState } from "../indexer/State.js"
import { HUB_TAG } from "../routing/Candidates.js"
import { marketFromIndex } from "../routing/Market.js"
import { SafetyCheck, SIMULATION_UNAVAILABLE } from "./check/SafetyCheck.js"
import { scanRoutes } from "./Routes.js"

export type Measured =
  | { readonly _tag: "Measured"; readonly verdicts: ReadonlyArray<SafetyVerdict> }
  /** Never simulated: USDC or a pinned asset. */
  | { readonly _tag: "Skipped" }
  | { readonly _tag: "Unroutable" }
  /** The node did not answer a simulation: not a verdict, measure again later. */
  | { readonly _tag: "Unanswered"; readonly reason: string }

export class TokenMeasure extends Effect.Service<TokenMeasure>()("TokenMeasure", {
  effect: Effect.gen(function*() {
    const { safety, safetyScan: settings } = yield* AppConfig
    const deployment = yield* Deployment
    const venues = yield* Venues
    const check = yield* SafetyCheck
    const usdc = usdcOf(deployment)
    const skipped = new Set<string>([usdc, ...safety.pinnedAssets])
    const hubs = [
      ...new Set([
        usdc,
        ...deployment.tokenList.tokens
          .filter((token) => token.chainId === deployment.chainId && (token.tags ?? []).includes(HUB_TAG))
          .map((token) => token.address.toLowerCase() as Hex)
      ])
    ]
    // Only routes the router can execute: the verdict is measured through it.
    const allowVenue = (id: string) => {
      const venue = venues.byId(id)
      return venue !== undefined && venue.executable && venue.enabled
    }
    const symbolOf = (state: IndexState) => (address: Hex) =>
      address === usdc ? "USDC" : Option.getOrUndefined(HashMap.get(state.tokens, address))?.symbol ?? address

    const measure = Effect.fn("Safety.measureToken")(function*(token: Hex, snapshot: IndexSnapshot) {
      if (skipped.has(token)) return { _tag: "Skipped" } satisfies Measured as Measured
      const { state } = snapshot
      const market = marketFromIndex(state)
      const paths = scanRoutes({
        market,
        usdc,
        token,
        hubs,
        allowVenue,
        probe: settings.probeUsdc,
        maxRoutes: settings.routesPerToken
      })
      if (paths.length === 0) return { _tag: "Unroutable" } satisfies Measured as Measured
      const verdicts = yield* Effect.forEach(paths, (path) =>
        check.check({
          token,
          path,
          amountInUsdc: settings.probeUsdc,
          block: BigInt(state.block),
          pools: market.pool,
          symbolOf: symbolOf(state)
        }))
      const unanswered = verdicts.find((verdict) => verdict.reason?.startsWith(SIMULATION_UNAVAILABLE) === true)
      if (unanswered !== undefined) return { _tag: "Unanswered", reason: unanswered.reason! } satisfies Measured
      return { _tag: "Measured", verdicts } satisfies Measured as Measured
    })

    return { measure, skipped: (token: Hex) => skipped.has(token) }
  })
}) {}

/**
 * The powers over a route rather than its token: a v4 pool whose fee its hook sets (a dynamic fee,
 * fixed in the pool's key at creation), and a v2 pool whose liquidity one address can pull
 * (./Liquidity.ts).
 */
import { Effect } from "effect"
import type { Hex } from "viem"
import { checksummed } from "../../../schema/Primitives.js"
import type { OwnerPower } from "../../../schema/Token.js"
import type { Path } from "../../routing/Path.js"
import type { PoolOf } from "../check/Expected.js"
import { largestLpHolder } from "./Liquidity.js"

export interface PowersRequest {
  readonly token: Hex
  readonly path: Path
  readonly block: bigint
  readonly pools: PoolOf
}

/** A single holder of less of a pool's liquidity cannot take the exit away. */
const REMOVABLE_SHARE_BPS = 1_000

export const routePowers = Effect.fn("Powers.route")(function*(request: PowersRequest) {
  const found: Array<OwnerPower> = []
  for (const hop of request.path.hops) {
    const pool = request.pools(hop.poolId)
    if (pool?.kind === "v4" && pool.dynamicFee && pool.hooks !== null) {
      found.push({
        flag: "hook_can_change_fee",
        function: null,
        caller: checksummed(pool.hooks),
        callerRole: "v4 hook",
        seen: "the pool's fee is dynamic: its hook sets it, on any swap",
        poolId: hop.poolId
      })
    }
    if (pool?.kind !== "v2") continue
    const top = yield* largestLpHolder(pool, request.block)
    if (top === undefined || top.shareBps < REMOVABLE_SHARE_BPS) continue
    found.push({
      flag: "liquidity_removable",
      function: null,
      caller: checksummed(top.holder),
      callerRole: top.isContract ? "LP holder (a contract: a lock's terms are not read)" : "LP holder",
      seen: `holds ${top.shareBps} bp of the pool's LP tokens, withdrawable in one transaction`,
      poolId: hop.poolId,
      shareBps: top.shareBps
    })
  }
  return found
})

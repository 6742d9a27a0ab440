/**
 * The powers over a route rather than its token: a v4 pool whose fee its hook sets (a dynamic fee,
 * fixed in the pool's key at creation), and a pool whose liquidity one address can pull (v2 LP tokens:
 * ./Liquidity.ts; v3 and v4 positions in range: ./Positions.ts).
 */
import { Effect } from "effect"
import type { Hex } from "viem"
import { checksummed } from "../../../schema/Primitives.js"
import type { OwnerPower } from "../../../schema/Token.js"
import type { RoutablePool } from "../../math/Hop.js"
import type { Path } from "../../routing/Path.js"
import type { PoolOf } from "../check/Expected.js"
import { codeMemo, joined, largestHolder, lpStakes, type Stakes } from "./Liquidity.js"
import { positionBook, type V3Position, v3Positions, type V4Position, v4Positions } from "./PositionLogs.js"
import { v3Stakes, type V4Contracts, v4Stakes } from "./Positions.js"

export interface PowersRequest {
  readonly token: Hex
  readonly path: Path
  readonly block: bigint
  readonly pools: PoolOf
}

/** A request at an epoch of the index: the position books start afresh after a rollback (./PositionLogs.ts). */
export interface RouteRequest extends PowersRequest {
  readonly epoch: number
}

/** A single holder of less of a pool's liquidity cannot take the exit away. */
const REMOVABLE_SHARE_BPS = 1_000

const LOCK_UNREAD = " (a contract: a lock's terms are not read)"

/**
 * The route's powers at a request's block (`powers`), and the contracts whose state they were read from
 * (`watched`); `v4Of` names a v4 venue's pool manager and state view. Each v3 and v4 pool's logs are
 * read once per epoch of the index (./PositionLogs.ts).
 */
export const routePowersWith = (v4Of: (venue: string) => V4Contracts | undefined) => {
  const v3Book = positionBook<V3Position>()
  const v4Book = positionBook<V4Position>()
  const isContract = codeMemo()
  const inRange = (stakes: Stakes) => ({
    stakes,
    role: "position owner",
    unit: "the pool's active liquidity (in range at its tick)"
  })

  /** The stakes in the positions the book knows, read while the new blocks' logs are; then the new ones'. */
  const stakesAcross = <P, E, R>(
    book: { readonly known: ReadonlyArray<P>; readonly added: Effect.Effect<ReadonlyArray<P>, E, R> },
    stakes: (positions: ReadonlyArray<P>) => Effect.Effect<Stakes, E, R>
  ) =>
    Effect.all([stakes(book.known), book.added], { concurrency: "unbounded" }).pipe(
      Effect.flatMap(([known, added]) =>
        added.length === 0 ? Effect.succeed(known) : Effect.map(stakes(added), (more) => joined(known, more))
      )
    )

  /** What one address can withdraw of `pool`, in its own unit, and how that unit is named; a curve: none. */
  const stakesOf = (pool: RoutablePool, block: bigint, epoch: number) => {
    switch (pool.kind) {
      case "v2":
        return Effect.map(
          lpStakes(pool, block),
          (stakes) => ({ stakes, role: "LP holder", unit: "the pool's LP tokens" })
        )
      case "v3":
        return Effect.map(
          stakesAcross(
            v3Book.at(pool, block, epoch, v3Positions(pool)),
            (positions) => v3Stakes(pool, positions, block)
          ),
          inRange
        )
      case "v4": {
        const venue = v4Of(pool.venue)
        if (venue === undefined) return Effect.succeed(undefined)
        return Effect.map(
          stakesAcross(
            v4Book.at(pool, block, epoch, v4Positions(pool, venue.poolManager)),
            (positions) => v4Stakes(pool, venue, positions, block)
          ),
          inRange
        )
      }
      case "curve":
        return Effect.succeed(undefined)
    }
  }

  /**
   * Every contract whose state the route's powers read at `readAt` (in the request's epoch) came from: a
   * v2 pair (its LP balances); a v3 pool (its tick, liquidity and direct positions) and the position
   * managers of its NFT positions (an NFT changes hands with a write to its manager, none to the pool);
   * a v4 venue's PoolManager (every v4 pool's state) and the senders of its pools' positions (a v4
   * position manager's NFTs). A position made after `readAt` writes its pool (v4: the PoolManager); a
   * book that has not read up to `readAt` may miss a manager: undefined, the route is read again.
   */
  const watched = (request: RouteRequest, readAt: bigint): ReadonlyArray<Hex> | undefined => {
    const addresses: Array<Hex> = []
    for (const hop of request.path.hops) {
      const pool = request.pools(hop.poolId)
      if (pool?.kind === "v2") addresses.push(pool.id)
      if (pool?.kind === "v3") {
        if (!v3Book.readThrough(pool.id, readAt, request.epoch)) return undefined
        addresses.push(pool.id, ...v3Book.known(pool.id).flatMap((p) => "manager" in p ? [p.manager] : []))
      }
      if (pool?.kind === "v4") {
        const venue = v4Of(pool.venue)
        if (venue === undefined) continue
        if (!v4Book.readThrough(pool.id, readAt, request.epoch)) return undefined
        addresses.push(venue.poolManager, ...v4Book.known(pool.id).map((p) => p.sender))
      }
    }
    return addresses
  }

  const powers = Effect.fn("Powers.route")(function*(request: RouteRequest) {
    const pools = request.path.hops.flatMap((hop) => {
      const pool = request.pools(hop.poolId)
      return pool === undefined ? [] : [{ poolId: hop.poolId, pool }]
    })
    const found: Array<OwnerPower> = pools.flatMap(({ pool, poolId }) =>
      pool.kind === "v4" && pool.dynamicFee && pool.hooks !== null
        ? [{
          flag: "hook_can_change_fee" as const,
          function: null,
          caller: checksummed(pool.hooks),
          callerRole: "v4 hook",
          seen: "the pool's fee is dynamic: its hook sets it, on any swap",
          poolId
        }]
        : []
    )
    const removable = yield* Effect.all(
      pools.map(({ pool, poolId }) =>
        Effect.gen(function*() {
          const held = yield* stakesOf(pool, request.block, request.epoch)
          if (held === undefined) return undefined
          const top = yield* largestHolder(held.stakes, request.block, isContract)
          if (top === undefined || top.shareBps < REMOVABLE_SHARE_BPS) return undefined
          return {
            flag: "liquidity_removable",
            function: null,
            caller: checksummed(top.holder),
            callerRole: top.isContract ? `${held.role}${LOCK_UNREAD}` : held.role,
            seen: `holds ${top.shareBps} bp of ${held.unit}, withdrawable in one transaction`,
            poolId,
            shareBps: top.shareBps
          } satisfies OwnerPower
        })
      ),
      { concurrency: "unbounded" }
    )
    return [...found, ...removable.filter((power) => power !== undefined)]
  })
  return { powers, watched }
}

/**
 * The powers over a token and its route, measured: the privileged calls simulated (./Probe.ts,
 * judged by ./Judge.ts), the proxy, the route's liquidity (./Liquidity.ts, ./Positions.ts) and v4
 * hooks. Flags inform beside the verdict; they never change it.
 *
 * The token's scan is kept while no block writes the token's code or storage (the block traces the
 * service already takes, ../StateChanges.ts; a node that cannot trace: per block): a power can only
 * change with a write to the token. The route's part likewise, on the state of every contract it was
 * read from (./RoutePowers.ts `watched`: pools, v4 PoolManagers, position managers). Either is kept
 * within one epoch of the index only. Scans a node did not answer are not kept.
 */
import { Effect, Option } from "effect"
import { type Address, getAddress, type Hex } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"
import { Deployment } from "../../../layers/Deployment.js"
import { Simulator } from "../../../layers/Simulator.js"
import { lowerHex } from "../../../schema/Chain.js"
import { checksummed } from "../../../schema/Primitives.js"
import type { OwnerFlag, OwnerPower } from "../../../schema/Token.js"
import { ChainIndex } from "../../indexer/ChainIndex.js"
import type { Path } from "../../routing/Path.js"
import { requestCache } from "../RequestCache.js"
import { StateChanges } from "../StateChanges.js"
import { type Candidate, readAccounts } from "./Accounts.js"
import { dispatchedSelectors } from "./Dispatch.js"
import { judge } from "./Judge.js"
import { labCode, STRANGER } from "./Lab.js"
import { runProbe } from "./Probe.js"
import { type PowersRequest, routePowersWith, type RouteRequest } from "./RoutePowers.js"

export interface Powers {
  readonly flags: ReadonlyArray<OwnerFlag>
  readonly powers: ReadonlyArray<OwnerPower>
}

/** Candidates simulated as callers: each multiplies the trials. */
const MAX_CALLERS = 6
/** Parts remembered with the block they were last looked at: a chain's tokens and routes. */
const LOOKED_KEPT = 65_536

const ORDER: ReadonlyArray<OwnerFlag> = [
  "owner_can_mint",
  "owner_can_move_balances",
  "owner_can_stop_sells",
  "owner_can_set_tax",
  "upgradeable",
  "hook_can_change_fee",
  "liquidity_removable"
]

export class OwnerPowers extends Effect.Service<OwnerPowers>()("OwnerPowers", {
  effect: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const simulator = yield* Simulator
    const { venues } = yield* Deployment
    const changes = yield* StateChanges
    const index = yield* ChainIndex
    const code = Option.getOrUndefined(yield* Effect.option(labCode))
    const v4Venues = new Map(
      venues.venues.flatMap((v) =>
        v.family === "v4"
          ? [[v.id, { poolManager: getAddress(v.poolManager), stateView: getAddress(v.stateView) }] as const]
          : []
      )
    )

    /** Where the token sits on the route's last hop: the account that funds the victim, and the sell's recipient. */
    const holderOf = (path: Path): Address | undefined => {
      const last = path.hops[path.hops.length - 1]!
      if (last.kind === "v2" || last.kind === "v3") return getAddress(last.poolId)
      return last.kind === "v4" ? v4Venues.get(last.venue)?.poolManager : undefined
    }

    const probed = Effect.fn("Powers.probed")(function*(request: PowersRequest) {
      const token = getAddress(request.token)
      const accounts = yield* readAccounts(token, request.block)
      const found: Array<OwnerPower> = []
      if (accounts.implementation !== undefined) {
        found.push({
          flag: "upgradeable",
          function: null,
          caller: accounts.proxyAdmin === undefined ? null : checksummed(accounts.proxyAdmin),
          callerRole: accounts.proxyAdmin === undefined ? null : "EIP-1967 admin",
          seen: `an EIP-1967 proxy: its implementation (${accounts.implementation}) can be replaced`
        })
      }
      const pool = holderOf(request.path)
      const selectors = [...new Set(accounts.codes.flatMap(dispatchedSelectors))]
      const callers: ReadonlyArray<Candidate> = accounts.candidates
        .filter((c) => c.address !== pool)
        .slice(0, MAX_CALLERS)
      if (code !== undefined && pool !== undefined && selectors.length > 0 && callers.length > 0) {
        const observed = yield* runProbe({
          token,
          pool,
          block: request.block,
          selectors,
          callers: callers.map((c) => c.address),
          code
        }).pipe(Effect.provideService(Simulator, simulator))
        for (const power of judge(observed, STRANGER)) {
          found.push({
            flag: power.flag,
            function: `${power.selector}${power.shape}`,
            caller: checksummed(power.caller),
            callerRole: callers.find((c) => c.address === power.caller)?.role ?? null,
            seen: power.seen
          })
        }
      }
      return found
    })

    /** Powers by a request's id; a lookup that failed is not kept. */
    const keyed = <Q extends PowersRequest>(
      lookup: (request: Q) => Effect.Effect<ReadonlyArray<OwnerPower>, unknown, ChainRpc>
    ) =>
      Effect.map(
        requestCache({
          capacity: 1_024,
          timeToLive: "1 hour",
          lookup: (request: Q) => Effect.provideService(lookup(request), ChainRpc, rpc)
        }),
        (cache) => (id: string, request: Q) =>
          cache.get(id, request).pipe(
            Effect.tapError(() => cache.invalidate(id)),
            Effect.orElseSucceed((): ReadonlyArray<OwnerPower> => [])
          )
      )
    const tokenPowers = yield* keyed(probed)
    const route = routePowersWith((venue) => v4Venues.get(venue))
    const routePowers = yield* keyed(route.powers)

    // Per part (a token, a route): the block it was last looked at, in which epoch of the index, the key
    // its powers are kept under, and the block they were read at under that key.
    const looked = new Map<
      string,
      { readonly block: bigint; readonly epoch: number; readonly key: string; readonly readAt: bigint }
    >()
    /**
     * The cache key of a part at `block`: the key it was last kept under while none of the contracts it
     * was read from was written between that block and this one, else this block's own. `addresses`
     * names them as known of the blocks up to the one the kept powers were read at (a contract first
     * involved later was reached through a write to one named); none known: not kept. Nothing is read
     * from the node for it: the follower's traces answer for any span it traced (a block not traced yet
     * is traced once, shared), where `eth_getProof` proved each account in the whole state trie at every
     * new block (691 of a quote's 1,864 ms at 2,000 extra pools). A rollback (the index's `epoch`)
     * starts every part afresh: a block number past it names another block.
     */
    const keyOf = Effect.fn("OwnerPowers.keyOf")(function*(
      part: string,
      addresses: (readAt: bigint) => ReadonlyArray<Hex> | undefined,
      block: bigint,
      epoch: number
    ) {
      const last = looked.get(part)
      const watched = last === undefined || last.epoch !== epoch ? undefined : addresses(last.readAt)
      const kept = last !== undefined && last.epoch === epoch && (last.block === block ||
        (watched !== undefined && (yield* changes.untouchedBetween(
          watched.map(lowerHex),
          Number(last.block < block ? last.block : block),
          Number(last.block < block ? block : last.block)
        ))))
      const key = kept ? last.key : `${part}|${epoch}@${block}`
      looked.delete(part)
      looked.set(part, { block, epoch, key, readAt: kept ? last.readAt : block })
      if (looked.size > LOOKED_KEPT) looked.delete(looked.keys().next().value!)
      return key
    })

    /** The powers over `request.token` and its route at `request.block`; none of a part the node could not say. */
    const of = Effect.fn("OwnerPowers.of")(function*(request: PowersRequest) {
      const token = `${request.token.toLowerCase()}|${holderOf(request.path)}`
      const { epoch } = yield* index.snapshot
      const routeRequest: RouteRequest = { ...request, epoch }
      const [tokenKey, routeKey] = yield* Effect.all([
        keyOf(token, () => [request.token], request.block, epoch),
        keyOf(request.path.key, (readAt) => route.watched(routeRequest, readAt), request.block, epoch)
      ], { concurrency: "unbounded" })
      const [own, pools] = yield* Effect.all([
        tokenPowers(tokenKey, request),
        routePowers(routeKey, routeRequest)
      ], { concurrency: "unbounded" })
      const powers = [...own, ...pools]
      return { flags: ORDER.filter((flag) => powers.some((p) => p.flag === flag)), powers } satisfies Powers
    })

    return { of }
  }),
  dependencies: [Simulator.Default]
}) {}

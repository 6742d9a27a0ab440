/**
 * The powers over a token and its route, measured: the privileged calls simulated (./Probe.ts,
 * judged by ./Judge.ts), the proxy, the route's liquidity (./Liquidity.ts, ./Positions.ts) and v4
 * hooks. Flags inform beside the verdict; they never change it.
 *
 * The token's scan is cached while its code and storage stay as they were (`eth_getProof`'s code
 * and storage hashes, read only once the token is looked at again in a later block; a node without
 * it: per block): a power can only change with a write to the token. The route's part likewise, on
 * its v2 pools' state; through a v3 or v4 pool, per block. Scans a node did not answer are not kept.
 */
import { Cache, Effect, Option, Schema } from "effect"
import { type Address, getAddress, type Hex, numberToHex } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"
import { Deployment } from "../../../layers/Deployment.js"
import { Simulator } from "../../../layers/Simulator.js"
import { checksummed } from "../../../schema/Primitives.js"
import type { OwnerFlag, OwnerPower } from "../../../schema/Token.js"
import type { Path } from "../../routing/Path.js"
import { type Candidate, readAccounts } from "./Accounts.js"
import { dispatchedSelectors } from "./Dispatch.js"
import { judge } from "./Judge.js"
import { labCode, STRANGER } from "./Lab.js"
import { runProbe } from "./Probe.js"
import { type PowersRequest, routePowersWith } from "./RoutePowers.js"

export interface Powers {
  readonly flags: ReadonlyArray<OwnerFlag>
  readonly powers: ReadonlyArray<OwnerPower>
}

/** Candidates simulated as callers: each multiplies the trials. */
const MAX_CALLERS = 6
const Proof = Schema.Struct({ codeHash: Schema.String, storageHash: Schema.String })
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

    /** A cache whose lookup needs the request beside its key; a lookup that failed is not kept. */
    const keyed = (lookup: (request: PowersRequest) => Effect.Effect<ReadonlyArray<OwnerPower>, unknown, ChainRpc>) =>
      Effect.gen(function*() {
        const asked = new Map<string, PowersRequest>()
        const cache = yield* Cache.make({
          capacity: 1_024,
          timeToLive: "1 hour",
          lookup: (id: string) => Effect.provideService(lookup(asked.get(id)!), ChainRpc, rpc)
        })
        return (id: string, request: PowersRequest) => {
          asked.set(id, request)
          return cache.get(id).pipe(
            Effect.ensuring(Effect.sync(() => asked.delete(id))),
            Effect.tapError(() => cache.invalidate(id)),
            Effect.orElseSucceed((): ReadonlyArray<OwnerPower> => [])
          )
        }
      })
    const tokenPowers = yield* keyed(probed)
    const routePowers = yield* keyed(routePowersWith((venue) => v4Venues.get(venue)))

    // Read once per address and block: quotes of one block (new sizes, other routes) share the read.
    const states = yield* Cache.make({
      capacity: 4_096,
      timeToLive: "1 minute",
      lookup: (key: string) => {
        const [address, block] = key.split("@") as [Hex, string]
        return rpc.read(Proof, "eth_getProof", [address, [], numberToHex(BigInt(block))]).pipe(
          Effect.map((proof) => `${proof.codeHash}|${proof.storageHash}`),
          Effect.orElseSucceed(() => `block ${block}`)
        )
      }
    })
    /** Changes with any write to `address`'s code or storage; a node without `eth_getProof`: with the block. */
    const stateOf = (address: Hex, block: bigint) => states.get(`${address.toLowerCase()}@${block}`)
    const statesOf = (addresses: ReadonlyArray<Hex>, block: bigint) =>
      Effect.map(
        Effect.all(addresses.map((address) => stateOf(address, block)), { concurrency: "unbounded" }),
        (hashes) => hashes.join("|")
      )

    // Per part (a token, a route): the block it was last looked at and the key its powers are kept under.
    const looked = new Map<string, { readonly block: bigint; readonly key: string }>()
    /**
     * The cache key of a part over `addresses` at `block`. A part never looked at is keyed by its block,
     * without reading any state: there is nothing to reuse yet, and `eth_getProof` costs the node about
     * what the probe does (more on a larger state: it proves the account in the whole state trie). Looked
     * at again in another block, the state hashes now decide; a part keyed by its block keeps that key
     * while the hashes at that block and now are the same (nothing was written in between).
     */
    const keyOf = Effect.fn("OwnerPowers.keyOf")(function*(part: string, addresses: ReadonlyArray<Hex>, block: bigint) {
      const last = looked.get(part)
      let key = last?.key ?? `${part}|@${block}`
      if (last !== undefined && last.block !== block) {
        const now = yield* statesOf(addresses, block)
        const byBlock = last.key.startsWith(`${part}|@`)
        key = byBlock && (yield* statesOf(addresses, last.block)) === now ? last.key : `${part}|${now}`
      }
      looked.delete(part)
      looked.set(part, { block, key })
      if (looked.size > LOOKED_KEPT) looked.delete(looked.keys().next().value!)
      return key
    })

    /** The powers over `request.token` and its route at `request.block`; none of a part the node could not say. */
    const of = Effect.fn("OwnerPowers.of")(function*(request: PowersRequest) {
      const token = `${request.token.toLowerCase()}|${holderOf(request.path)}`
      // A v3 or v4 position changes hands with its NFT, a write to no pool: those routes are read per block.
      const v2Only = request.path.hops.every((hop) => request.pools(hop.poolId)?.kind === "v2")
      const [tokenKey, routeKey] = yield* Effect.all([
        keyOf(token, [request.token], request.block),
        v2Only
          ? keyOf(request.path.key, request.path.hops.map((hop) => hop.poolId), request.block)
          : Effect.succeed(`${request.path.key}|@${request.block}`)
      ], { concurrency: "unbounded" })
      const [own, pools] = yield* Effect.all([
        tokenPowers(tokenKey, request),
        routePowers(routeKey, request)
      ], { concurrency: "unbounded" })
      const powers = [...own, ...pools]
      return { flags: ORDER.filter((flag) => powers.some((p) => p.flag === flag)), powers } satisfies Powers
    })

    return { of }
  }),
  dependencies: [Simulator.Default]
}) {}

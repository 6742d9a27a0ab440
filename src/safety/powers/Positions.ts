/**
 * What each owner of a v3 or v4 pool's positions can withdraw now. Concentrated liquidity backs the
 * exit price only where it is in range: an owner's stake is the liquidity of its positions that span
 * the pool's current tick, and the whole is the pool's active liquidity there (./Liquidity.ts takes
 * the largest). The positions come from the pool's logs (./PositionLogs.ts); their liquidity and
 * owners now, in one batch of reads at the verdict's block.
 *
 * A position a manager holds is its NFT owner's: a v3 manager's `ownerOf(tokenId)`, and in v4 the
 * sender's `ownerOf` of the salt read as a token id, when the sender answers it (a v4 position
 * manager keeps each position under its token id). Any other position is the address the pool names.
 */
import { Effect } from "effect"
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  hexToBigInt,
  parseAbi
} from "viem"
import { type ChainClient, ChainRpc } from "../../../layers/ChainRpc.js"
import type { ConcentratedPool } from "../../math/PoolState.js"
import type { Stakes } from "./Liquidity.js"
import type { V3Position, V4Position } from "./PositionLogs.js"

const abi = parseAbi([
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function positions(bytes32 key) view returns (uint128 liquidity, uint256, uint256, uint128, uint128)",
  "function positions(uint256 tokenId) view returns (uint96, address, address, address, uint24, int24, int24, uint128 liquidity, uint256, uint256, uint128, uint128)",
  "function getPositionLiquidity(bytes32 poolId, bytes32 positionId) view returns (uint128)"
])

/** The v4 venue's contracts a pool's positions are read through. */
export interface V4Contracts {
  readonly poolManager: Address
  readonly stateView: Address
}

const inRange = (pool: ConcentratedPool) => (position: { tickLower: number; tickUpper: number }) =>
  position.tickLower <= pool.tick && pool.tick < position.tickUpper

/** A contract's answer, or undefined where the call reverts or finds no code; a node's failure still fails. */
const unlessReverted =
  <A>(call: (client: ChainClient) => Promise<A>) => (client: ChainClient): Promise<A | undefined> =>
    call(client).catch((cause: unknown) => {
      const refused = cause instanceof BaseError &&
        cause.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError) !==
          null
      if (refused) return undefined
      throw cause
    })

const summed = (pool: ConcentratedPool, stakes: ReadonlyArray<readonly [Address, bigint] | undefined>): Stakes => {
  const held = new Map<Address, bigint>()
  for (const stake of stakes) if (stake !== undefined) held.set(stake[0], (held.get(stake[0]) ?? 0n) + stake[1])
  return { held, total: pool.liquidity }
}

/** In-range liquidity by owner of `positions` in a v3 pool at `block`. */
export const v3Stakes = Effect.fn("Powers.v3Stakes")(function*(
  pool: ConcentratedPool,
  positions: ReadonlyArray<V3Position>,
  block: bigint
) {
  const rpc = yield* ChainRpc
  const read = <A>(action: string, call: (c: ChainClient) => Promise<A>) => rpc.use(action, unlessReverted(call))
  const stakes = yield* Effect.all(
    positions.filter(inRange(pool)).map((position) =>
      "manager" in position
        ? Effect.all([
          read("ownerOf", (c) =>
            c.readContract({
              address: position.manager,
              abi,
              functionName: "ownerOf",
              args: [position.tokenId],
              blockNumber: block
            })),
          read("positions", (c) =>
            c.readContract({
              address: position.manager,
              abi,
              functionName: "positions",
              args: [position.tokenId],
              blockNumber: block
            }))
        ], { concurrency: "unbounded" }).pipe(Effect.map(([owner, held]) =>
          owner === undefined || held === undefined ? undefined : [getAddress(owner), held[7]] as const
        ))
        : read("positions", (c) =>
          c.readContract({
            address: getAddress(pool.id),
            abi,
            functionName: "positions",
            args: [position.key],
            blockNumber: block
          })).pipe(Effect.map((held) =>
            held === undefined ? undefined : [position.owner, held[0]] as const
          ))
    ),
    { concurrency: "unbounded" }
  )
  return summed(pool, stakes)
})

/** In-range liquidity by owner of `positions` in a v4 pool at `block`. */
export const v4Stakes = Effect.fn("Powers.v4Stakes")(function*(
  pool: ConcentratedPool,
  venue: V4Contracts,
  positions: ReadonlyArray<V4Position>,
  block: bigint
) {
  const rpc = yield* ChainRpc
  const stakes = yield* Effect.all(
    positions.filter(inRange(pool)).map(({ id, salt, sender }) =>
      Effect.all([
        rpc.use("getPositionLiquidity", (c) =>
          c.readContract({
            address: venue.stateView,
            abi,
            functionName: "getPositionLiquidity",
            args: [pool.id, id],
            blockNumber: block
          })),
        hexToBigInt(salt) === 0n
          ? Effect.succeed(undefined)
          : rpc.use(
            "ownerOf",
            unlessReverted((c) =>
              c.readContract({
                address: sender,
                abi,
                functionName: "ownerOf",
                args: [hexToBigInt(salt)],
                blockNumber: block
              })
            )
          )
      ], { concurrency: "unbounded" }).pipe(
        Effect.map(([liquidity, nftOwner]) =>
          [nftOwner === undefined ? sender : getAddress(nftOwner), liquidity] as const
        )
      )
    ),
    { concurrency: "unbounded" }
  )
  return summed(pool, stakes)
})

/**
 * The positions a v3 or v4 pool has ever had, from its own logs, each log read once: a book per pool
 * remembers the block it has read through and asks the node only for the blocks after it. A position
 * stays in the book once seen; whether it still holds anything is read at the verdict's block
 * (./Positions.ts), so a position since emptied only reads as zero. A rollback of the index starts the
 * books afresh (the blocks they had read through may have been replaced).
 *
 * A position held by a position manager belongs to whoever owns its NFT. In v3 the manager is
 * recognised by what it does: the pool's `Mint` owner that emitted `IncreaseLiquidity` for the same
 * liquidity in the same transaction, which names the NFT. A v4 position keeps its salt, which a v4
 * position manager sets to the NFT's id (./Positions.ts asks the sender's `ownerOf`).
 */
import { Effect } from "effect"
import { type Address, encodePacked, getAddress, type Hex, keccak256, parseAbiItem } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"
import type { RpcUnavailable } from "../../../schema/Errors.js"
import type { ConcentratedPool } from "../../math/PoolState.js"

const v3Mint = parseAbiItem(
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)"
)
const increased = parseAbiItem(
  "event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)"
)
const modified = parseAbiItem(
  "event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)"
)

interface Range {
  readonly tickLower: number
  readonly tickUpper: number
}

/** A v3 position: the NFT a manager holds it for, or the pool's own key for its direct owner. */
export type V3Position =
  & Range
  & ({ readonly manager: Address; readonly tokenId: bigint } | { readonly owner: Address; readonly key: Hex })

export interface V4Position extends Range {
  /** The position's id in the PoolManager: keccak256(sender, tickLower, tickUpper, salt). */
  readonly id: Hex
  readonly sender: Address
  readonly salt: Hex
}

/** A decoded log's arguments, each present: the event's ABI names them all. */
type Defined<T> = { readonly [K in keyof T]-?: NonNullable<T[K]> }

type Read<P> = (
  from: bigint,
  to: bigint
) => Effect.Effect<ReadonlyArray<readonly [string, P]>, RpcUnavailable, ChainRpc>

/**
 * Positions by pool, each pool's logs read once in an epoch of the index. For a verdict at `block`: the
 * positions the book already holds, and the read of those first seen since (the blocks after the last
 * read), apart, so that the known ones' reads need not wait for the new logs. A rollback (a new epoch)
 * starts every book afresh: a block number the book has read through may now name another block, whose
 * positions it would never read.
 */
export const positionBook = <P>() => {
  let epoch: number | undefined
  const books = new Map<string, { through: bigint; positions: Map<string, P> }>()
  return {
    at: (pool: ConcentratedPool, block: bigint, at: number, read: Read<P>) => {
      if (at !== epoch) {
        books.clear()
        epoch = at
      }
      const book = books.get(pool.id)
      const known = book?.positions ?? new Map<string, P>()
      const from = book === undefined ? BigInt(pool.createdBlock) : book.through + 1n
      const added = from > block ? Effect.succeed([]) : Effect.map(read(from, block), (found) => {
        // A read of an abandoned epoch's blocks is not kept in the new epoch's book.
        if (epoch === at && (books.get(pool.id)?.through ?? -1n) < block) {
          books.set(pool.id, {
            through: block,
            positions: new Map([...(books.get(pool.id)?.positions ?? []), ...found])
          })
        }
        return [...new Map(found.filter(([key]) => !known.has(key))).values()]
      })
      return { known: [...known.values()], added }
    },
    /** The positions of `poolId` the book holds: whose contracts a verdict on them depends on. */
    known: (poolId: string): ReadonlyArray<P> => [...(books.get(poolId)?.positions.values() ?? [])],
    /** Whether the book holds every position of `poolId` made up to `block` in the index's epoch `at`. */
    readThrough: (poolId: string, block: bigint, at: number) =>
      epoch === at && (books.get(poolId)?.through ?? -1n) >= block
  }
}

/** The v3 positions minted in `pool` from `from` to `to`, by their key in the book. */
export const v3Positions = (pool: ConcentratedPool) =>
  Effect.fn("Powers.v3Positions")(function*(from: bigint, to: bigint) {
    const rpc = yield* ChainRpc
    const address = getAddress(pool.id)
    const mints = yield* rpc.use("getLogs", (c) => c.getLogs({ address, event: v3Mint, fromBlock: from, toBlock: to }))
    if (mints.length === 0) return []
    const blocks = mints.map((log) => log.blockNumber)
    const increases = yield* rpc.use("getLogs", (c) =>
      c.getLogs({
        address: [...new Set(mints.map((log) => getAddress(log.args.owner!)))],
        event: increased,
        fromBlock: blocks.reduce((a, b) => a < b ? a : b),
        toBlock: blocks.reduce((a, b) => a > b ? a : b)
      }))
    return mints.map((mint): readonly [string, V3Position] => {
      const { owner, tickLower, tickUpper } = mint.args as Defined<typeof mint.args>
      const nft = increases.find((log) =>
        log.transactionHash === mint.transactionHash && getAddress(log.address) === getAddress(owner) &&
        log.args.liquidity === mint.args.amount
      )?.args.tokenId
      if (nft !== undefined) {
        return [`${owner}:${nft}`, { manager: getAddress(owner), tokenId: nft, tickLower, tickUpper }]
      }
      const key = keccak256(encodePacked(["address", "int24", "int24"], [owner, tickLower, tickUpper]))
      return [key, { owner: getAddress(owner), key, tickLower, tickUpper }]
    })
  })

/** The v4 positions modified in `pool` (on `poolManager`) from `from` to `to`, by id. */
export const v4Positions = (pool: ConcentratedPool, poolManager: Address) =>
  Effect.fn("Powers.v4Positions")(function*(from: bigint, to: bigint) {
    const rpc = yield* ChainRpc
    const logs = yield* rpc.use(
      "getLogs",
      (c) => c.getLogs({ address: poolManager, event: modified, args: { id: pool.id }, fromBlock: from, toBlock: to })
    )
    return logs.map((log): readonly [string, V4Position] => {
      const { sender, tickLower, tickUpper, salt } = log.args as Defined<typeof log.args>
      const id = keccak256(encodePacked(["address", "int24", "int24", "bytes32"], [sender, tickLower, tickUpper, salt]))
      return [id, { id, sender: getAddress(sender), salt, tickLower, tickUpper }]
    })
  })

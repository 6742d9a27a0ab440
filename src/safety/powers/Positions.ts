/**
 * What each owner of a v3 or v4 pool's positions can withdraw now. Concentrated liquidity backs the
 * exit price only where it is in range: an owner's stake is the liquidity of its positions that span
 * the pool's current tick, and the whole is the pool's active liquidity there (./Liquidity.ts takes
 * the largest). Positions are found in the pool's own logs, read once per pool; their liquidity now
 * and their owners in one batch of reads at the verdict's block.
 *
 * A position held by a position manager belongs to whoever owns its NFT. The manager is recognised by
 * what it does, never by its address: in v3 the pool's `Mint` owner that emitted `IncreaseLiquidity`
 * for the same liquidity in the same transaction, in v4 the `ModifyLiquidity` sender that answers
 * ERC-721 `ownerOf` for the position's salt read as a token id. Anything else is held by the address the
 * pool names.
 */
import { Effect } from "effect"
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  encodePacked,
  getAddress,
  type Hex,
  hexToBigInt,
  keccak256,
  parseAbi,
  parseAbiItem
} from "viem"
import { type ChainClient, ChainRpc } from "../../../layers/ChainRpc.js"
import type { ConcentratedPool } from "../../math/PoolState.js"
import type { Stakes } from "./Liquidity.js"

const v3Mint = parseAbiItem(
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)"
)
const increased = parseAbiItem(
  "event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)"
)
const modified = parseAbiItem(
  "event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)"
)
const abi = parseAbi([
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function positions(bytes32 key) view returns (uint128 liquidity, uint256, uint256, uint128, uint128)",
  "function positions(uint256 tokenId) view returns (uint96, address, address, address, uint24, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256, uint256, uint128, uint128)",
  "function getPositionLiquidity(bytes32 poolId, bytes32 positionId) view returns (uint128)"
])

/** The v4 venue's contracts a pool's positions are read through. */
export interface V4Contracts {
  readonly poolManager: Address
  readonly stateView: Address
}

const inRange = (pool: ConcentratedPool, tickLower: number, tickUpper: number) =>
  tickLower <= pool.tick && pool.tick < tickUpper

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

const sum = (stakes: ReadonlyArray<readonly [Address, bigint] | undefined>) => {
  const held = new Map<Address, bigint>()
  for (const stake of stakes) if (stake !== undefined) held.set(stake[0], (held.get(stake[0]) ?? 0n) + stake[1])
  return held
}

/** In-range liquidity by owner in a v3 pool at `block`. */
export const v3Stakes = Effect.fn("Powers.v3Stakes")(function*(pool: ConcentratedPool, block: bigint) {
  const rpc = yield* ChainRpc
  const address = getAddress(pool.id)
  const mints = (yield* rpc.use(
    "getLogs",
    (c) => c.getLogs({ address, event: v3Mint, fromBlock: BigInt(pool.createdBlock), toBlock: block })
  )).filter((log) => inRange(pool, log.args.tickLower!, log.args.tickUpper!))
  if (mints.length === 0) return { held: new Map(), total: pool.liquidity } satisfies Stakes
  const blocks = mints.map((log) => log.blockNumber)
  const increases = yield* rpc.use("getLogs", (c) =>
    c.getLogs({
      address: [...new Set(mints.map((log) => getAddress(log.args.owner!)))],
      event: increased,
      fromBlock: blocks.reduce((a, b) => a < b ? a : b),
      toBlock: blocks.reduce((a, b) => a > b ? a : b)
    }))
  // A mint through a manager: its owner's IncreaseLiquidity of the same amount, in the same transaction.
  const nftOf = (mint: typeof mints[number]) =>
    increases.find((log) =>
      log.transactionHash === mint.transactionHash && getAddress(log.address) === getAddress(mint.args.owner!) &&
      log.args.liquidity === mint.args.amount
    )?.args.tokenId
  const nfts = new Map<string, { manager: Address; tokenId: bigint }>()
  for (const mint of mints) {
    const tokenId = nftOf(mint)
    const manager = getAddress(mint.args.owner!)
    if (tokenId !== undefined) nfts.set(`${manager}:${tokenId}`, { manager, tokenId })
  }
  const managers = new Set([...nfts.values()].map((nft) => nft.manager))
  const direct = new Map(
    mints.filter((mint) => !managers.has(getAddress(mint.args.owner!))).map((mint) => {
      const { owner, tickLower, tickUpper } = mint.args
      return [
        keccak256(encodePacked(["address", "int24", "int24"], [owner!, tickLower!, tickUpper!])),
        getAddress(owner!)
      ]
    })
  )
  const read = <A>(action: string, call: (c: ChainClient) => Promise<A>) => rpc.use(action, unlessReverted(call))
  const stakes = yield* Effect.all([
    ...[...nfts.values()].map(({ manager, tokenId }) =>
      Effect.all([
        read("ownerOf", (c) =>
          c.readContract({ address: manager, abi, functionName: "ownerOf", args: [tokenId], blockNumber: block })),
        read("positions", (c) =>
          c.readContract({ address: manager, abi, functionName: "positions", args: [tokenId], blockNumber: block }))
      ], { concurrency: "unbounded" }).pipe(Effect.map(([owner, position]) =>
        owner === undefined || position === undefined || !inRange(pool, position[5], position[6])
          ? undefined
          : [getAddress(owner), position[7]] as const
      ))
    ),
    ...[...direct].map(([key, owner]) =>
      read(
        "positions",
        (c) => c.readContract({ address, abi, functionName: "positions", args: [key], blockNumber: block })
      )
        .pipe(Effect.map((position) => position === undefined ? undefined : [owner, position[0]] as const))
    )
  ], { concurrency: "unbounded" })
  return { held: sum(stakes), total: pool.liquidity } satisfies Stakes
})

/** In-range liquidity by owner in a v4 pool at `block`. */
export const v4Stakes = Effect.fn("Powers.v4Stakes")(function*(
  pool: ConcentratedPool,
  venue: V4Contracts,
  block: bigint
) {
  const rpc = yield* ChainRpc
  const logs = yield* rpc.use("getLogs", (c) =>
    c.getLogs({
      address: venue.poolManager,
      event: modified,
      args: { id: pool.id },
      fromBlock: BigInt(pool.createdBlock),
      toBlock: block
    }))
  const positions = new Map<Hex, { sender: Address; salt: Hex }>()
  for (const log of logs) {
    const { sender, tickLower, tickUpper, salt } = log.args
    if (!inRange(pool, tickLower!, tickUpper!)) continue
    const id = keccak256(
      encodePacked(["address", "int24", "int24", "bytes32"], [sender!, tickLower!, tickUpper!, salt!])
    )
    positions.set(id, { sender: getAddress(sender!), salt: salt! })
  }
  const stakes = yield* Effect.all(
    [...positions].map(([id, { sender, salt }]) =>
      Effect.all([
        rpc.use("getPositionLiquidity", (c) =>
          c.readContract({
            address: venue.stateView,
            abi,
            functionName: "getPositionLiquidity",
            args: [pool.id, id],
            blockNumber: block
          })),
        // A position manager keeps each position under its token id as the salt.
        hexToBigInt(salt) === 0n ?
          Effect.succeed(undefined) :
          rpc.use(
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
  return { held: sum(stakes), total: pool.liquidity } satisfies Stakes
})

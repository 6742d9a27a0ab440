/**
 * Who can pull a pool's liquidity now. Each kind of pool says what its holders hold (v2 here: the LP
 * token; v3 and v4 in ./Positions.ts); the largest holder that is not a burn address is named with its
 * share. A contract holder may be a time lock or a multisig: its terms are not read, so it is named
 * with its share and the reader judges.
 *
 * A v2 pair's LP token is its liquidity, so the share one address holds is the share it can burn for
 * the pool's reserves in one transaction. Holders are every recipient of an LP Transfer since the
 * pair's creation, their balances read at the verdict's block.
 */
import { Effect } from "effect"
import { type Address, getAddress, parseAbi, parseAbiItem } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"
import type { V2Pool } from "../../math/PoolState.js"

const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)")
const lpAbi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function totalSupply() view returns (uint256)"
])

/** Addresses nothing comes back from: the zero address and the dead addresses. */
const BURNT = new Set([
  "0x0000000000000000000000000000000000000000",
  "0x000000000000000000000000000000000000dead",
  "0xdead000000000000000042069420694206942069"
])

/** What one address holds of a pool, in the pool's own unit (LP tokens, liquidity). */
export interface Stakes {
  readonly held: ReadonlyMap<Address, bigint>
  readonly total: bigint
}

export interface Holder {
  readonly holder: Address
  readonly shareBps: number
  readonly isContract: boolean
}

/** Two reads of one pool's stakes, summed. */
export const joined = (a: Stakes, b: Stakes): Stakes => {
  const held = new Map(a.held)
  for (const [holder, more] of b.held) held.set(holder, (held.get(holder) ?? 0n) + more)
  return { held, total: a.total }
}

/** Whether an address has code, asked once: a holder's kind is read again only for a new holder. */
export const codeMemo = () => {
  const known = new Map<Address, boolean>()
  return (address: Address, block: bigint) =>
    known.has(address) ? Effect.succeed(known.get(address)!) : Effect.gen(function*() {
      const rpc = yield* ChainRpc
      const code = yield* rpc.use("getCode", (c) => c.getCode({ address, blockNumber: block }))
      known.set(address, code !== undefined && code !== "0x")
      return known.get(address)!
    })
}

/** The largest holder of `stakes` that is not a burn address, if any holds anything. */
export const largestHolder = Effect.fn("Powers.largestHolder")(function*(
  stakes: Stakes,
  block: bigint,
  isContract: ReturnType<typeof codeMemo>
) {
  if (stakes.total <= 0n) return undefined
  let top: { holder: Address; held: bigint } | undefined
  for (const [holder, held] of stakes.held) {
    if (held > 0n && !BURNT.has(holder.toLowerCase()) && (top === undefined || held > top.held)) top = { holder, held }
  }
  if (top === undefined) return undefined
  return {
    holder: top.holder,
    shareBps: Number((top.held * 10_000n) / stakes.total),
    isContract: yield* isContract(top.holder, block)
  } satisfies Holder
})

/** The LP token balances of `pool`'s holders at `block`; the pair's own minimum liquidity is nobody's. */
export const lpStakes = Effect.fn("Powers.lpStakes")(function*(pool: V2Pool, block: bigint) {
  const rpc = yield* ChainRpc
  const address = getAddress(pool.id)
  const logs = yield* rpc.use(
    "getLogs",
    (c) => c.getLogs({ address, event: transfer, fromBlock: BigInt(pool.createdBlock), toBlock: block })
  )
  const holders = [...new Set(logs.map((log) => getAddress(log.args.to!)))].filter((holder) => holder !== address)
  const [total, balances] = yield* Effect.all([
    rpc.use(
      "totalSupply",
      (c) => c.readContract({ address, abi: lpAbi, functionName: "totalSupply", blockNumber: block })
    ),
    Effect.all(
      holders.map((holder) =>
        rpc.use(
          "balanceOf",
          (c) => c.readContract({ address, abi: lpAbi, functionName: "balanceOf", args: [holder], blockNumber: block })
        )
      ),
      // Sent together, so that they share the transport's batches rather than a round trip per eight.
      { concurrency: "unbounded" }
    )
  ], { concurrency: "unbounded" })
  return { held: new Map(holders.map((holder, i) => [holder, balances[i]!])), total } satisfies Stakes
})

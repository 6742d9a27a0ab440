/**
 * Who can pull a v2 pool's liquidity now: the pair's LP token is its liquidity, so the share one
 * address holds is the share it can burn for the pool's reserves in one transaction. Holders are every
 * recipient of an LP Transfer since the pair's creation, their balances read at the verdict's block.
 * Burn addresses (the zero address, the dead addresses, the pair itself holding minimum liquidity)
 * hold nothing that can come back. A contract holder may be a time lock or a multisig: its terms are
 * not read, so it is named with its share and the reader judges.
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

const BURNT = new Set([
  "0x0000000000000000000000000000000000000000",
  "0x000000000000000000000000000000000000dead",
  "0xdead000000000000000042069420694206942069"
])

export interface LpHolder {
  readonly holder: Address
  readonly shareBps: number
  readonly isContract: boolean
}

/** The largest single holder of `pool`'s LP tokens at `block` that is not a burn address, if any. */
export const largestLpHolder = Effect.fn("Powers.lpHolder")(function*(pool: V2Pool, block: bigint) {
  const rpc = yield* ChainRpc
  const address = getAddress(pool.id)
  const logs = yield* rpc.use(
    "getLogs",
    (c) => c.getLogs({ address, event: transfer, fromBlock: BigInt(pool.createdBlock), toBlock: block })
  )
  const holders = [...new Set(logs.map((log) => getAddress(log.args.to!)))]
    .filter((holder) => !BURNT.has(holder.toLowerCase()) && holder !== address)
  const [supply, balances] = yield* Effect.all([
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
      { concurrency: 8 }
    )
  ], { concurrency: "unbounded" })
  if (supply === 0n) return undefined
  let top: { holder: Address; balance: bigint } | undefined
  holders.forEach((holder, i) => {
    const balance = balances[i]!
    if (balance > 0n && (top === undefined || balance > top.balance)) top = { holder, balance }
  })
  if (top === undefined) return undefined
  const code = yield* rpc.use("getCode", (c) => c.getCode({ address: top!.holder, blockNumber: block }))
  return {
    holder: top.holder,
    shareBps: Number((top.balance * 10_000n) / supply),
    isContract: code !== undefined && code !== "0x"
  } satisfies LpHolder
})

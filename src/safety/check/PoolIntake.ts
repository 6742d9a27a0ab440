/**
 * What the first pool of a sell took from the seller, read from the pool's own `Swap` event. A v2 pair's
 * event is emitted by the venue's pair code (its address proves it), so it is a trusted figure where the
 * token's `balanceOf` is the token's claim. It is what a sell tax is measured against: a tax token that
 * swaps its collected fees through the same pair during the seller's transfer moves the price first, and
 * pricing the USDC that came out on the pool as it was before would count that move as tax.
 *
 * Only the router's own swap counts (the event's `sender`), never the token's swap-back beside it.
 * Concentrated pools lock against such re-entry during a swap, so their implied input stands (./Expected.ts).
 */
import { decodeEventLog, parseAbi, toEventSelector } from "viem"
import type { SimLog } from "../../../layers/Simulator.js"
import type { Hex } from "../../../schema/Chain.js"
import type { Path } from "../../routing/Path.js"
import type { PoolOf } from "./Expected.js"

const swapAbi = parseAbi([
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)"
])
const swapTopic = toEventSelector(swapAbi[0])

/**
 * The input `pair`'s last `Swap` event recorded for `swapper`'s swap, on the side of token0 or token1.
 * The last: a token's swap-back runs inside the seller's transfer, before the seller's own swap, and may
 * go through the same swapper (a wallet selling through Router02, as the token's swap-back does).
 */
export const pairIntake = (
  logs: ReadonlyArray<SimLog>,
  pair: string,
  swapper: string,
  tokenIsToken0: boolean
): bigint | undefined => {
  let intake: bigint | undefined
  for (const log of logs) {
    if (log.address.toLowerCase() !== pair.toLowerCase() || log.topics[0] !== swapTopic) continue
    const { args } = decodeEventLog({ abi: swapAbi, data: log.data, topics: log.topics as [Hex, ...Array<Hex>] })
    if (args.sender.toLowerCase() === swapper.toLowerCase()) intake = tokenIsToken0 ? args.amount0In : args.amount1In
  }
  return intake
}

/** The token input the sell path's first v2 pair recorded for `router`'s swap, if it is a v2 pair. */
export const v2SellIntake = (
  sellPath: Path,
  logs: ReadonlyArray<SimLog>,
  router: string,
  pools: PoolOf
): bigint | undefined => {
  const hop = sellPath.hops[0]
  const pool = hop === undefined ? undefined : pools(hop.poolId)
  if (hop === undefined || pool?.kind !== "v2") return undefined
  return pairIntake(logs, pool.id, router, pool.token0.toLowerCase() === hop.tokenIn.toLowerCase())
}

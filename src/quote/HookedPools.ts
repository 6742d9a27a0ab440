/**
 * Prices the swaps indexed state cannot: v4 pools whose hook sets the fee per swap or returns deltas.
 * The venue's own quoter (Uniswap's V4Quoter) runs the real swap at the quote's block, hook included,
 * and reverts with the amounts, so nothing is guessed. A request's pending swaps go out together (the
 * RPC transport batches concurrent calls into one round trip); a path with several hooked hops needs
 * one round per hop, since each hop's amount depends on the one before. Answers are kept per block, so
 * a repeated quote at the same block simulates nothing.
 */
import { Effect } from "effect"
import { parseAbi } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { DYNAMIC_FEE_FLAG, type Hex, ZERO_ADDRESS } from "../../schema/Chain.js"
import { pendingSimulations, type RouteRequest, type RouteResult, withSimulatedHops } from "../routing/FindRoute.js"
import type { HopSimulation, Side, SimulatedHops } from "../routing/Path.js"

// The quoter's functions are not `view` (each swaps, then reverts with the result) but are called with
// `eth_call`, as the venue documents; declared `view` here so the read API accepts them.
const v4QuoterAbi = parseAbi([
  "struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }",
  "struct QuoteExactSingleParams { PoolKey poolKey; bool zeroForOne; uint128 exactAmount; bytes hookData; }",
  "function quoteExactInputSingle(QuoteExactSingleParams params) view returns (uint256 amountOut, uint256 gasEstimate)",
  "function quoteExactOutputSingle(QuoteExactSingleParams params) view returns (uint256 amountIn, uint256 gasEstimate)"
])

/** Rounds of simulation per request: one per hooked hop on a path, at most the longest path. */
const MAX_ROUNDS = 3
/** Swaps simulated per request, across all rounds: bounds what one quote can cost the node. */
const MAX_SIMULATIONS = 24
const CACHE_LIMIT = 4_096
const MAX_UINT128 = (1n << 128n) - 1n

const keyOf = (poolId: Hex, tokenIn: Hex, side: Side, amount: bigint) => `${poolId}:${tokenIn}:${side}:${amount}`

export class HookedPools extends Effect.Service<HookedPools>()("HookedPools", {
  effect: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const { contracts } = yield* Deployment
    const quoter = contracts["v4Quoter"]
    let cachedBlock = -1
    const cache = new Map<string, bigint>()

    /** One swap through the quoter; 0 when it reverts (no liquidity, or the hook refuses it). */
    const simulate = (request: RouteRequest, block: number, { amount, hop, side }: HopSimulation) => {
      const pool = request.market.pool(hop.poolId)
      if (quoter === undefined || pool === undefined || pool.kind !== "v4" || amount > MAX_UINT128) {
        return Effect.succeed(0n)
      }
      const params = {
        poolKey: {
          currency0: pool.token0,
          currency1: pool.token1,
          fee: pool.dynamicFee ? DYNAMIC_FEE_FLAG : pool.feePips,
          tickSpacing: pool.tickSpacing,
          hooks: pool.hooks ?? ZERO_ADDRESS
        },
        zeroForOne: hop.tokenIn === pool.token0,
        exactAmount: amount,
        hookData: "0x" as const
      }
      return rpc.use("v4Quoter", (client) =>
        client.readContract({
          address: quoter,
          abi: v4QuoterAbi,
          functionName: side === "exactIn" ? "quoteExactInputSingle" : "quoteExactOutputSingle",
          args: [params],
          blockNumber: BigInt(block)
        })).pipe(
          Effect.map(([quoted]) => quoted),
          // A revert is an answer (the swap cannot happen); an unreachable node is not.
          Effect.catchIf((error) => /revert/i.test(error.hint ?? ""), () => Effect.succeed(0n))
        )
    }

    const table = (block: number): SimulatedHops => ({
      get: (poolId, tokenIn, side, amount) =>
        block === cachedBlock ? cache.get(keyOf(poolId, tokenIn, side, amount)) : undefined
    })

    /** `result` with every path that waits on a hooked pool priced, as far as simulation can. */
    // Untraced: it runs inside the quote's route step's span, and most quotes simulate nothing here.
    const price = Effect.fnUntraced(function*(request: RouteRequest, result: RouteResult, block: number) {
      if (block !== cachedBlock) {
        cachedBlock = block
        cache.clear()
      }
      let priced = withSimulatedHops(request, result, table(block))
      let budget = MAX_SIMULATIONS
      for (let round = 0; round < MAX_ROUNDS && budget > 0; round++) {
        const pending = [
          ...new Map(
            pendingSimulations(priced).map((
              swap
            ) => [keyOf(swap.hop.poolId, swap.hop.tokenIn, swap.side, swap.amount), swap])
          )
        ]
          .filter(([key]) => !cache.has(key))
          .slice(0, budget)
        if (pending.length === 0) break
        budget -= pending.length
        const answers = yield* Effect.all(pending.map(([, swap]) => simulate(request, block, swap)), {
          concurrency: "unbounded"
        })
        if (cache.size + answers.length > CACHE_LIMIT) cache.clear()
        pending.forEach(([key], i) => cache.set(key, answers[i]!))
        priced = withSimulatedHops(request, result, table(block))
      }
      return priced
    })
    return { price }
  })
}) {}

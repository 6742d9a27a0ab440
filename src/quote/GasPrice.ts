/**
 * The chain's gas price, read once per indexed block and shared by every quote of that block: a quote
 * prices gas without a round trip of its own once the block's price is known.
 */
import { Effect, Ref } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"

export class GasPrice extends Effect.Service<GasPrice>()("GasPrice", {
  effect: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const latest = yield* Ref.make<{ readonly block: number; readonly wei: bigint } | undefined>(undefined)
    return {
      /** Wei per gas unit at (or just after) `block`; never below 1 wei, so gas always costs something. */
      // Untraced: every quote asks inside its route step's span, and the price is known but once per block.
      at: Effect.fnUntraced(function*(block: number) {
        const known = yield* Ref.get(latest)
        if (known !== undefined && known.block >= block) return known.wei
        const read = yield* rpc.use("getGasPrice", (client) => client.getGasPrice())
        const wei = read > 0n ? read : 1n
        yield* Ref.update(
          latest,
          (current) => (current === undefined || current.block < block ? { block, wei } : current)
        )
        return wei
      })
    }
  })
}) {}

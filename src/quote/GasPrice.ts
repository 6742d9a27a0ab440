/**
 * The chain's gas price, read once per indexed block and shared by every quote of that block: a quote
 * prices gas without a round trip of its own once the block's price is known. The read starts as the
 * index publishes the block, off the request path: on a node that answers only between the blocks it
 * mines (anvil at 10,000 pools mines for most of each second), a quote's own read would wait for that.
 */
import { Cache, Effect, Ref, Stream } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { ChainIndex } from "../indexer/ChainIndex.js"

/** Blocks whose read is kept: a quote asks for its own block, the head's or one just behind. */
const BLOCKS_KEPT = 16

export class GasPrice extends Effect.Service<GasPrice>()("GasPrice", {
  scoped: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const index = yield* ChainIndex
    const latest = yield* Ref.make<{ readonly block: number; readonly wei: bigint } | undefined>(undefined)
    // One read per block, shared by the follower below and every quote of the block while it is under way.
    const reads = yield* Cache.make({
      capacity: BLOCKS_KEPT,
      timeToLive: "1 minute",
      lookup: (_block: number) =>
        Effect.map(rpc.use("getGasPrice", (client) => client.getGasPrice()), (read) => (read > 0n ? read : 1n))
    })
    /** Wei per gas unit at (or just after) `block`; never below 1 wei, so gas always costs something. */
    // Untraced: every quote asks inside its route step's span, and the price is known but once per block.
    const at = Effect.fnUntraced(function*(block: number) {
      const known = yield* Ref.get(latest)
      if (known !== undefined && known.block >= block) return known.wei
      const wei = yield* reads.get(block).pipe(Effect.tapError(() => reads.invalidate(block)))
      yield* Ref.update(
        latest,
        (current) => (current === undefined || current.block < block ? { block, wei } : current)
      )
      return wei
    })
    yield* index.changes.pipe(
      Stream.filter((snapshot) => !snapshot.catchingUp),
      Stream.runForEach((snapshot) => Effect.fork(Effect.ignore(at(snapshot.state.block)))),
      Effect.forkScoped
    )
    return { at }
  })
}) {}

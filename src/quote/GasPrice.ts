/**
 * The chain's gas price, read once per indexed block and shared by every quote of that block. The read
 * goes out as soon as the index publishes a block, off the request path: the first quote after a new
 * block finds the price known, or shares the read in flight, instead of waiting for a round trip of
 * its own behind the head read. A failed read is forgotten, so the next caller reads again.
 */
import { Deferred, Effect, Stream } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import type { RpcUnavailable } from "../../schema/Errors.js"
import { ChainIndex } from "../indexer/ChainIndex.js"

interface Read {
  readonly block: number
  readonly wei: Deferred.Deferred<bigint, RpcUnavailable>
}

export class GasPrice extends Effect.Service<GasPrice>()("GasPrice", {
  scoped: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const index = yield* ChainIndex
    const scope = yield* Effect.scope
    /** The read for the highest block asked so far: it answers for that block and every one below. */
    let latest: Read | undefined

    // The read runs in the service's scope: a quote that goes away does not cancel the others' read.
    const readFor = (block: number) =>
      Effect.gen(function*() {
        const read: Read = { block, wei: yield* Deferred.make<bigint, RpcUnavailable>() }
        latest = read
        yield* rpc.use("getGasPrice", (client) => client.getGasPrice()).pipe(
          Effect.map((wei) => (wei > 0n ? wei : 1n)),
          Effect.tapError(() => Effect.sync(() => latest === read && (latest = undefined))),
          Effect.intoDeferred(read.wei),
          Effect.forkIn(scope)
        )
        return read
      })

    /** Wei per gas unit at (or just after) `block`; never below 1 wei, so gas always costs something. */
    // Untraced: every quote asks inside its route step's span, and the price is read but once per block.
    const at = (block: number) =>
      Effect.flatMap(
        Effect.suspend(() => (latest !== undefined && latest.block >= block ? Effect.succeed(latest) : readFor(block))),
        (read) => Deferred.await(read.wei)
      )

    yield* index.changes.pipe(
      Stream.filter((snapshot) => !snapshot.catchingUp),
      Stream.map((snapshot) => snapshot.state.block),
      Stream.changes,
      Stream.runForEach((block) => Effect.ignore(at(block))),
      Effect.forkScoped
    )

    return { at }
  })
}) {}

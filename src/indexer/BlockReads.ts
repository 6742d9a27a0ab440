/**
 * The reads of one block the follow step makes (./Follow.ts): its logs by hash and its transactions'
 * senders. One block cannot be split by range, so an answer too large is asked for by fewer topics at a
 * time, and the number that worked is kept for the blocks after it (a burst of busy blocks refuses each
 * block alike, and each refusal is an answer of the cap's size fetched for nothing).
 */
import { Effect, Schema } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Address, Hex } from "../../schema/Chain.js"
import type { RpcUnavailable } from "../../schema/Errors.js"
import { type BatchSizer, chunks, isTooMuch, RawLogs } from "./ChainSource.js"
import type { RawLog } from "./LogWords.js"

const BlockSenders = Schema.NullOr(Schema.Struct({
  transactions: Schema.Array(Schema.Struct({ hash: Hex, from: Address }))
}))

/** Topics per call, at most as many as `sizer` allows now; a refused part is cut again. */
const byTopics = (
  hash: Hex,
  topics: ReadonlyArray<`0x${string}`>,
  sizer: BatchSizer
): Effect.Effect<ReadonlyArray<RawLog>, RpcUnavailable, ChainRpc> =>
  Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const size = yield* sizer.current
    const parts = yield* Effect.forEach(
      chunks(0, topics.length - 1, size),
      ([first, last]) => {
        const part = topics.slice(first, last + 1)
        return rpc.read(RawLogs, "eth_getLogs", [{ blockHash: hash, topics: [part] }]).pipe(
          Effect.catchIf(
            (error) => part.length > 1 && isTooMuch(error),
            () => Effect.zipRight(sizer.refused(part.length), byTopics(hash, part, sizer))
          )
        )
      },
      { concurrency: 4 }
    )
    return parts.length === 1 ? parts[0]! : parts.flat().sort((a, b) => Number(a.logIndex) - Number(b.logIndex))
  })

/**
 * Logs of the events the index reads in the block with `hash`, in chain order; a node that lacks the
 * block fails the call. `sizer` counts topics per call: cut by refusals, grown back by blocks read.
 */
export const blockLogs = (hash: Hex, topics: ReadonlyArray<`0x${string}`>, sizer: BatchSizer) =>
  Effect.tap(byTopics(hash, topics, sizer), () => sizer.succeeded())

/**
 * Who sent each transaction of the block with `hash` (from the block itself: one call for all), or
 * undefined for a block too large to read whole: `enrich` then asks for the senders it needs one by one.
 */
export const blockSenders = (hash: Hex) =>
  Effect.flatMap(
    ChainRpc,
    (rpc) => rpc.read(BlockSenders, "eth_getBlockByHash", [hash, true])
  ).pipe(
    Effect.map((block): ReadonlyMap<Hex, Hex> | undefined =>
      new Map((block?.transactions ?? []).map((tx) => [tx.hash, tx.from]))
    ),
    Effect.catchIf(isTooMuch, () => Effect.succeed(undefined))
  )

/**
 * What the indexer reads from the chain, all through `ChainRpc`: the head, block headers, the logs of a
 * block range and transaction senders.
 *
 * Logs are asked for by topic only, never by address: the pools to watch number in the thousands and
 * change every block, so the decoder filters by emitter instead. A range the node refuses as too large
 * (its own cap, or an answer over the client's size cap) is halved until it is accepted, and the size
 * that worked becomes the batch size from then on.
 */
import { Effect, Ref, Schema } from "effect"
import { overCap } from "../../layers/chain/CallFaults.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Address, Hex } from "../../schema/Chain.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import { allTopics } from "./Events.js"
import { RawLog } from "./LogWords.js"

export interface Header {
  readonly number: number
  readonly hash: Hex
  readonly parentHash: Hex
  readonly time: number
}

const RawHeader = Schema.NullOr(Schema.Struct({
  number: Schema.String,
  hash: Hex,
  parentHash: Hex,
  timestamp: Schema.String
}))

const Sender = Schema.NullOr(Schema.Struct({ from: Address }))

export const RawLogs = Schema.Array(RawLog)

const hex = (n: number): string => `0x${n.toString(16)}`

/** How nodes word "ask for less": result-count caps, response-size caps and block-range caps. */
const tooMuch = /too many|more than|exceed|response size|limit|range is too|block range|too large/i

export const isTooMuch = (error: RpcUnavailable): boolean => tooMuch.test(`${error.hint ?? ""} ${error.message}`)

const parse = (raw: typeof RawHeader.Type): Header | undefined =>
  raw === null ? undefined : {
    number: Number(raw.number),
    hash: raw.hash,
    parentHash: raw.parentHash,
    time: Number(raw.timestamp)
  }

/**
 * The head, by header rather than `eth_blockNumber`: its hash reveals a reorg that replaced the head
 * at the same height, which a block number never shows. Uncached, like every call here, and sent at
 * once: every answer waits for it.
 */
export const latestHeader = Effect.fn("ChainSource.latestHeader")(function*() {
  const rpc = yield* ChainRpc
  const latest = parse(yield* rpc.readNow(RawHeader, "eth_getBlockByNumber", ["latest", false]))
  if (latest === undefined) {
    return yield* new RpcUnavailable({ message: "chain RPC has no latest block", hint: "is the node syncing?" })
  }
  return latest
})

export const header = Effect.fn("ChainSource.header")(function*(number: number) {
  const rpc = yield* ChainRpc
  return parse(yield* rpc.read(RawHeader, "eth_getBlockByNumber", [hex(number), false]))
})

/** Headers of `from..to`; `undefined` entries for blocks the node does not have (the head moved back). */
export const headers = (from: number, to: number) =>
  Effect.forEach(
    Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i),
    (number) => header(number),
    { concurrency: 32 }
  )

export const senders = (txs: Iterable<Hex>) =>
  Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const found = yield* Effect.forEach(
      [...new Set(txs)],
      (tx) =>
        rpc.read(Sender, "eth_getTransactionByHash", [tx]).pipe(
          Effect.map((raw) => raw === null ? [] : [[tx, raw.from] as const])
        ),
      { concurrency: 128 }
    )
    return new Map<Hex, Hex>(found.flat())
  })

/**
 * The batch size in blocks: a refusal halves what was refused, or cuts it to what fits when the refusal
 * said how far over the cap the answer was (`overCap`), with a margin; successes grow it back.
 */
export interface BatchSizer {
  readonly current: Effect.Effect<number>
  readonly refused: (size: number, overCap?: number) => Effect.Effect<void>
  readonly succeeded: Effect.Effect<void>
}

/** A cut sized from an oversized answer aims this far below the cap: blocks are not alike. */
const OVER_CAP_MARGIN = 1.25

export const makeBatchSizer = (max: number) =>
  Effect.map(Ref.make(max), (size): BatchSizer => ({
    current: Ref.get(size),
    refused: (attempted, over) => {
      const parts = over === undefined ? 2 : Math.max(2, Math.ceil(over * OVER_CAP_MARGIN))
      return Ref.update(size, (current) => Math.max(1, Math.min(current, Math.floor(attempted / parts))))
    },
    succeeded: Ref.update(size, (current) => Math.min(max, current + Math.max(1, Math.floor(current / 4))))
  }))

export const chunks = (from: number, to: number, size: number): Array<readonly [number, number]> => {
  const ranges: Array<readonly [number, number]> = []
  for (let start = from; start <= to; start += size) ranges.push([start, Math.min(to, start + size - 1)])
  return ranges
}

/**
 * Logs of the events the index reads in `from..to`, in chain order. A refused range is read again in
 * chunks of the reduced batch size (each of which may be refused and cut again).
 */
export const logs = (
  from: number,
  to: number,
  sizer: BatchSizer,
  topics: ReadonlyArray<`0x${string}`> = allTopics
): Effect.Effect<ReadonlyArray<RawLog>, RpcUnavailable, ChainRpc> =>
  Effect.gen(function*() {
    const rpc = yield* ChainRpc
    return yield* rpc.read(RawLogs, "eth_getLogs", [{
      fromBlock: hex(from),
      toBlock: hex(to),
      topics: [topics]
    }]).pipe(
      Effect.catchIf(
        (error) => to > from && isTooMuch(error),
        (error) =>
          Effect.gen(function*() {
            yield* sizer.refused(to - from + 1, overCap(error.hint))
            const size = yield* sizer.current
            const parts = yield* Effect.forEach(
              chunks(from, to, size),
              ([start, end]) => logs(start, end, sizer, topics)
            )
            return parts.flat()
          })
      )
    )
  })

/**
 * What the indexer reads from the chain, all through `ChainRpc`: the head, block headers, the logs of a
 * block range and transaction senders.
 *
 * Logs are asked for by topic only, never by address: the pools to watch number in the thousands and
 * change every block, so the decoder filters by emitter instead. A range the node refuses as too large
 * (its own cap, or an answer over the client's size cap) is cut until it is accepted, and the size
 * that worked becomes the batch size from then on.
 */
import { Chunk, Effect, Option, Ref, Schema, Stream } from "effect"
import { overCap, oversizedBytes, RESPONSE_CAP_BYTES } from "../../layers/chain/CallFaults.js"
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
 * The batch size in blocks: a refusal halves what was refused, or cuts it to a third of the cap when the
 * refusal said how far over the cap the answer was (`overCap`); successes grow it back, but only with
 * room to grow: an answer under half the response cap and, once something was refused, with at most half
 * the logs of the largest answer since (a node's cap may count results, not bytes). Growing on every
 * answer would take a dense stretch back to a refusal every few calls. Every answer caps it at a third
 * of the cap at that answer's density.
 */
export interface BatchSizer {
  readonly current: Effect.Effect<number>
  readonly refused: (size: number, overCap?: number) => Effect.Effect<void>
  /** An answer accepted: the blocks asked, its logs and its share of the response cap, when known. */
  readonly succeeded: (
    answer?: { readonly blocks: number; readonly logs: number; readonly fill: number }
  ) => Effect.Effect<void>
}

/**
 * A cut sized from an answer's size aims at this share of the cap: blocks are not alike, and a catch-up
 * holds the answer read ahead beside the one it decodes and applies (their logs, short-lived, are most
 * of its heap's high-water mark; pieces near the cap took RSS at the head past 1.5× a checkpoint start).
 */
const AIM = 1 / 3

interface Sizing {
  readonly size: number
  /** Most logs in an answer since the last refusal; null before any refusal. */
  readonly largest: number | null
}

export const makeBatchSizer = (max: number) =>
  Effect.map(Ref.make<Sizing>({ size: max, largest: null }), (sizing): BatchSizer => ({
    current: Effect.map(Ref.get(sizing), (now) => now.size),
    refused: (attempted, over) => {
      const parts = over === undefined ? 2 : Math.max(2, Math.ceil(over / AIM))
      return Ref.update(sizing, (now) => ({
        size: Math.max(1, Math.min(now.size, Math.floor(attempted / parts))),
        largest: 0
      }))
    },
    succeeded: (answer) =>
      Ref.update(sizing, (now) => {
        const largest = now.largest === null || answer === undefined ? now.largest : Math.max(now.largest, answer.logs)
        const room = answer === undefined ||
          (answer.fill < 0.5 && (largest === null || answer.logs * 2 <= largest))
        const grown = room ? Math.min(max, now.size + Math.max(1, Math.floor(now.size / 4))) : now.size
        // Whatever was asked, the answer's density says what aims at a third of the cap where the chain
        // is now (a refused range's pieces are cut to its unread part, and the size must not stay what
        // its sparse start allowed).
        const fits = answer === undefined || answer.fill === 0
          ? grown
          : Math.max(1, Math.floor((answer.blocks * AIM) / answer.fill))
        return { size: Math.min(grown, fits), largest }
      })
  }))

export const chunks = (from: number, to: number, size: number): Array<readonly [number, number]> => {
  const ranges: Array<readonly [number, number]> = []
  for (let start = from; start <= to; start += size) ranges.push([start, Math.min(to, start + size - 1)])
  return ranges
}

/** The logs of one range of blocks, in chain order. */
export interface LogPiece {
  readonly from: number
  readonly to: number
  readonly raw: ReadonlyArray<RawLog>
}

/**
 * What a piece's logs are made into as soon as they arrive, before the piece waits for anything (the
 * pieces before it applied, a read of their tokens): the answer's objects, several times the size of
 * what is made of them, then die young instead of outliving collections into the old generation.
 */
export type Digest<A, R> = (piece: LogPiece) => Effect.Effect<A, RpcUnavailable, R>

interface Digested<A> {
  readonly value: A
}

const asRead: Digest<LogPiece, never> = Effect.succeed

/** About how many bytes of JSON a log took in its answer: the fixed fields, its data and its topics. */
const answerBytes = (raw: ReadonlyArray<RawLog>): number => {
  let bytes = 0
  for (const log of raw) bytes += 360 + log.data.length + 69 * log.topics.length
  return bytes
}

/** A range refused as too much, with the bytes its answer would have taken when the refusal said. */
interface Refused {
  readonly from: number
  readonly to: number
  readonly bytes: number | undefined
}

/**
 * One `eth_getLogs` of `from..to`, or the range back when it was refused as too much (the size cut).
 * `left` counts down the bytes of logs still unread in a refused range this one is part of.
 */
const ask = <A, R>(
  from: number,
  to: number,
  sizer: BatchSizer,
  topics: ReadonlyArray<`0x${string}`>,
  left: Ref.Ref<number | undefined>,
  digest: Digest<A, R>
) =>
  Effect.flatMap(
    ChainRpc,
    (rpc) =>
      rpc.read(RawLogs, "eth_getLogs", [{ fromBlock: hex(from), toBlock: hex(to), topics: [topics] }]).pipe(
        Effect.tap((raw) => {
          const bytes = answerBytes(raw)
          return Effect.zipRight(
            sizer.succeeded({ blocks: to - from + 1, logs: raw.length, fill: bytes / RESPONSE_CAP_BYTES }),
            Ref.update(left, (unread) => unread === undefined ? undefined : unread - bytes)
          )
        }),
        Effect.flatMap((raw) => digest({ from, to, raw })),
        Effect.map((value): Digested<A> | Refused => ({ value })),
        Effect.catchIf(
          (error) => to > from && isTooMuch(error),
          (error) =>
            Effect.as(
              sizer.refused(to - from + 1, overCap(error.hint)),
              {
                from,
                to,
                bytes: oversizedBytes(error.hint)
              } satisfies Refused
            )
        )
      )
  )

/**
 * The most of `blocks` to ask at once when they hold `bytes` of logs between them: their average share
 * of a response cap, at the cuts' aim. A refusal says how large the whole range's answer was, so
 * the part still unread after its sparse blocks holds the rest: sized by the recent answers alone, the
 * pieces would walk from a sparse stretch into a dense one and be refused again.
 */
const fitting = (bytes: number | undefined, blocks: number): number =>
  bytes === undefined || bytes <= AIM * RESPONSE_CAP_BYTES
    ? blocks
    : Math.max(1, Math.floor((blocks * AIM * RESPONSE_CAP_BYTES) / bytes))

/**
 * The logs of `from..to` as pieces in chain order, each made into what `digest` makes of it as it
 * arrives, up to `reads` asked at once. Each range is as large
 * as the batch size when it is asked for, so a refusal shrinks every range asked after it; a refused
 * range is read again the same way, as pieces of the cut size, in its place, while the ranges after it
 * are asked for meanwhile, no piece of it larger than its unread part's average share of what the
 * refusal said it holds (`holds`, in bytes).
 */
export const logPieces = <A, R>(
  from: number,
  to: number,
  sizer: BatchSizer,
  topics: ReadonlyArray<`0x${string}`>,
  reads: number,
  digest: Digest<A, R>,
  holds?: number
): Stream.Stream<A, RpcUnavailable, ChainRpc | R> =>
  Stream.unwrap(Effect.map(Ref.make(holds), (left) =>
    Stream.unfoldEffect(from, (next) =>
      next > to
        ? Effect.succeedNone
        : Effect.map(Effect.all([sizer.current, Ref.get(left)]), ([size, unread]) => {
          const end = Math.min(to, next + Math.min(size, fitting(unread, to - next + 1)) - 1)
          return Option.some([[next, end] as const, end + 1] as const)
        })).pipe(
        Stream.mapEffect(([start, end]) => ask(start, end, sizer, topics, left, digest), { concurrency: reads }),
        Stream.flatMap((read) =>
          "value" in read
            ? Stream.make(read.value)
            : logPieces(read.from, read.to, sizer, topics, reads, digest, read.bytes)
        )
      )))

/**
 * Sizes the batch by one block's logs (`block`, the newest of a long range) before the range is asked:
 * a chain's recent blocks are its busiest, and a first range sized for the sparse blocks of its start
 * would have the node build an answer far over the cap for nothing (96 MB for the 20,000-pool devnet's
 * first 357 blocks). A sample that fails says nothing; the range's own reads report the failure.
 */
export const sampleDensity = (block: number, sizer: BatchSizer, topics: ReadonlyArray<`0x${string}`>) =>
  Effect.flatMap(
    Ref.make<number | undefined>(undefined),
    (unsized) => Effect.ignore(ask(block, block, sizer, topics, unsized, asRead))
  )

/** Logs of the events the index reads in `from..to`, in chain order, read as `logPieces`. */
export const logs = (
  from: number,
  to: number,
  sizer: BatchSizer,
  topics: ReadonlyArray<`0x${string}`> = allTopics,
  reads = 1
): Effect.Effect<ReadonlyArray<RawLog>, RpcUnavailable, ChainRpc> =>
  Effect.map(
    Stream.runCollect(logPieces(from, to, sizer, topics, reads, asRead)),
    (pieces) => Chunk.toReadonlyArray(pieces).flatMap((part) => part.raw)
  )

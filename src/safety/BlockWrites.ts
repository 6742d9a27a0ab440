/**
 * Which contracts a block's transactions wrote (storage, or code created, changed or destroyed), asked
 * of the node in one of two ways, in this order:
 *
 * - `trace_replayBlockTransactions` with `stateDiff` (reth, Erigon, Nethermind, anvil);
 * - `debug_traceBlockByNumber` with the `prestateTracer` in diff mode (geth and most others).
 *
 * Both replay the block on its parent's state. The first comes first because anvil (1.7.1) can hang for
 * good on the second: it holds its chain storage's read lock while replaying the transaction, the replay
 * takes that lock again, and a block being mined meanwhile queues a writer between the two, which then
 * waits on the first forever. A devnet that traces every block while transactions arrive met it within a
 * few hundred blocks (docs/safety.md); the parity replay takes the lock once.
 *
 * Balance and nonce changes do not count: every transaction makes them to its sender and the producer.
 * The two differ on one thing: the prestate tracer is asked without code (`disableCode`), so it does not
 * see a contract created without storage, which the parity diff counts. No verdict depends on one: the
 * contracts a verdict depends on existed when it was measured.
 */
import { type Context, Effect, Option, Ref, Schema } from "effect"
import type { ChainRpc } from "../../layers/ChainRpc.js"
import { type Hex, hexOption } from "../../schema/Chain.js"
import { RpcUnavailable } from "../../schema/Errors.js"

const AccountDiff = Schema.Struct({ storage: Schema.optional(Schema.Unknown), code: Schema.optional(Schema.Unknown) })
const Accounts = Schema.optional(Schema.Record({ key: Schema.String, value: AccountDiff }))

/** One transaction's `prestateTracer` diff as `debug_traceBlockByNumber` answers it. */
const TxDiff = Schema.Struct({ result: Schema.optional(Schema.Struct({ pre: Accounts, post: Accounts })) })
type TxDiff = typeof TxDiff.Type

/** One transaction's state diff as `trace_replayBlockTransactions` answers it: `"="` for unchanged. */
const TxStateDiff = Schema.Struct({
  stateDiff: Schema.optional(Schema.NullOr(Schema.Record({
    key: Schema.String,
    value: Schema.Struct({
      code: Schema.optional(Schema.Unknown),
      storage: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
    })
  })))
})
type TxStateDiff = typeof TxStateDiff.Type

const collect = (fill: (add: (address: string) => void) => void): ReadonlySet<Hex> => {
  const written = new Set<Hex>()
  fill((address) => Option.map(hexOption(address), (hex) => written.add(hex)))
  return written
}

/**
 * From prestate diffs. A diff lists only what changed, and omits zero values on either side: a slot
 * cleared to zero shows in `pre` alone, a slot written from zero in `post` alone.
 */
export const writtenIn = (diffs: ReadonlyArray<TxDiff>): ReadonlySet<Hex> =>
  collect((add) => {
    for (const { result } of diffs) {
      const pre = result?.pre ?? {}
      const post = result?.post ?? {}
      for (const [address, before] of Object.entries(pre)) {
        if (before.storage !== undefined || !(address in post)) add(address)
      }
      for (const [address, after] of Object.entries(post)) {
        if (after.storage !== undefined || after.code !== undefined) add(address)
      }
    }
  })

/** From parity state diffs: a changed slot is listed, changed code is anything but `"="`. */
export const writtenInStateDiffs = (diffs: ReadonlyArray<TxStateDiff>): ReadonlySet<Hex> =>
  collect((add) => {
    for (const { stateDiff } of diffs) {
      for (const [address, account] of Object.entries(stateDiff ?? {})) {
        const code = account.code ?? "="
        if (Object.keys(account.storage ?? {}).length > 0 || code !== "=") add(address)
      }
    }
  })

/** One way of asking the node what `block` wrote. */
type BlockTracer = (
  rpc: Context.Tag.Service<ChainRpc>,
  block: number
) => Effect.Effect<ReadonlySet<Hex>, RpcUnavailable>

const tag = (block: number) => `0x${block.toString(16)}`

/** The ways, in the order they are tried. */
const blockTracers: ReadonlyArray<BlockTracer> = [
  (rpc, block) =>
    Effect.map(
      rpc.read(Schema.Array(TxStateDiff), "trace_replayBlockTransactions", [tag(block), ["stateDiff"]]),
      writtenInStateDiffs
    ),
  (rpc, block) =>
    Effect.map(
      rpc.read(Schema.Array(TxDiff), "debug_traceBlockByNumber", [
        tag(block),
        { tracer: "prestateTracer", tracerConfig: { diffMode: true, disableCode: true } }
      ]),
      writtenIn
    )
]

/** How nodes say they have no such method (a block they cannot trace answers otherwise). */
const unsupported = /method not found|method .* (does not exist|is not available|not supported)|unsupported method/i

/**
 * What a block wrote, asked of `rpc` the first way it has not refused as unknown; `traceable` says
 * whether any way is left.
 */
export const blockWrites = (rpc: Context.Tag.Service<ChainRpc>) =>
  Effect.map(Ref.make(blockTracers), (usable) => {
    const writtenAt = (block: number): Effect.Effect<ReadonlySet<Hex>, RpcUnavailable> =>
      Effect.flatMap(Ref.get(usable), ([tracer]) =>
        tracer === undefined
          ? Effect.fail(new RpcUnavailable({ message: "the chain RPC cannot trace blocks" }))
          : Effect.catchAll(tracer(rpc, block), (error) =>
            unsupported.test(`${error.hint ?? ""}`)
              ? Effect.zipRight(
                Ref.update(usable, (left) => left.filter((other) => other !== tracer)),
                writtenAt(block)
              )
              : Effect.fail(error)))
    return { writtenAt, traceable: Effect.map(Ref.get(usable), (left) => left.length > 0) }
  })

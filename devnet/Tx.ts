/**
 * The bootstrap's few chain actions, over the project's one `ChainRpc` boundary.
 *
 * Anvil runs with automine off for the bootstrap (`begin`/`end`), and transactions are queued here.
 * A block is mined only when the chain must move on: the clock moves (`at`: the queue is mined at the
 * old moment first), a caller needs a receipt (a created address, an event), or any other RPC request
 * is made. A contract read does not mine: the queue is handed to anvil's pool and the read sees it
 * through the pending block. So a phase of transactions costs one block instead of one each.
 * Order is kept: the queue goes out one sender run at a time (anvil mines in arrival order), a run's
 * transactions in one JSON-RPC batch with explicit nonces (anvil handles a batch's calls concurrently,
 * so only the nonces order them). Nonces are counted here from each account's first use; nothing else
 * sends from these accounts during the bootstrap.
 * The gas limit is fixed and generous rather than estimated: anvil estimates against the current block,
 * and once the bootstrap moves the clock a v3 oracle write can cost more in the mined block than in
 * the estimate, running out of gas. The block gas limit is raised while queueing so that a block holds
 * a whole phase at that limit each, and put back before the chain is served. Every receipt is
 * checked (in one batch at the next receipt a caller needs, and at the end), so a revert stops the
 * bootstrap with the step's label, before the chain is served, instead of leaving a silently broken
 * market.
 */
import { type Context, Effect, Schema } from "effect"
import {
  type Abi,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  formatTransactionReceipt,
  type Hex,
  numberToHex,
  type RpcTransactionReceipt,
  type TransactionReceipt
} from "viem"
import type { ChainRpc } from "../layers/ChainRpc.js"
import { RpcHex } from "../schema/Chain.js"
import { DevnetError } from "./DevnetError.js"

type Rpc = Context.Tag.Service<ChainRpc>

/** Below anvil's 30M block gas limit, so a transaction sent this way also fits a served block. */
const GAS_LIMIT = 25_000_000n
/** While queueing: room for a whole phase's transactions at GAS_LIMIT each in one block. */
const QUEUE_BLOCK_GAS = GAS_LIMIT * 1_000n

export interface Contract {
  readonly address: Address
  readonly abi: Abi
}

export interface Call {
  readonly to?: Address
  readonly data?: Hex
  readonly value?: bigint
}

/** A mined receipt, checked only as far as viem's formatter needs it to be one (tooling, not the service). */
const MinedReceipt = Schema.declare((answer: unknown): answer is RpcTransactionReceipt =>
  typeof answer === "object" && answer !== null && "status" in answer && "transactionHash" in answer
)
const MaybeReceipt = Schema.NullOr(MinedReceipt)
const TxHash = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{64}$/))
const GasLimit = Schema.Struct({ gasLimit: Schema.String })

interface Queued {
  readonly from: Address
  readonly call: Call
  readonly label: string
}

interface Sent {
  readonly hash: Hex
  readonly label: string
}

const failed = (label: string) => (error: { readonly message: string; readonly hint?: string | undefined }) =>
  new DevnetError({ message: `${label}: ${error.hint ?? error.message}`, cause: error })

/** The queue cut into runs of consecutive transactions from one sender, in order. */
const runsBySender = (queued: ReadonlyArray<Queued>): ReadonlyArray<ReadonlyArray<Queued>> =>
  queued.reduce<Array<Array<Queued>>>((runs, next) => {
    const last = runs[runs.length - 1]
    if (last !== undefined && last[0]?.from === next.from) last.push(next)
    else runs.push([next])
    return runs
  }, [])

export const makeTx = (rpc: Rpc) => {
  let queue: Array<Queued> = []
  /** Sent to anvil, not yet mined. */
  let pool: Array<Sent> = []
  /** Mined, receipt not yet checked. */
  let unchecked: Array<Sent> = []
  let servedGasLimit: string | undefined
  let nextTimestamp: number | undefined
  const nonces = new Map<Address, number>()

  const nonceOf = (from: Address) =>
    nonces.has(from)
      ? Effect.succeed(nonces.get(from) as number)
      : rpc.read(RpcHex, "eth_getTransactionCount", [from, "pending"]).pipe(
        Effect.map(Number),
        Effect.mapError(failed(`nonce of ${from}`))
      )

  /** One run at a time, so anvil sees the runs in order; a run's transactions together, in nonce order. */
  const sendRun = Effect.fn("Tx.sendRun")(function*(run: ReadonlyArray<Queued>) {
    const from = (run[0] as Queued).from
    const first = yield* nonceOf(from)
    nonces.set(from, first + run.length)
    const sent = yield* Effect.forEach(run, ({ call, label }, i) =>
      rpc.read(TxHash, "eth_sendTransaction", [{
        from,
        nonce: numberToHex(first + i),
        gas: numberToHex(GAS_LIMIT),
        ...(call.to === undefined ? {} : { to: call.to }),
        ...(call.data === undefined ? {} : { data: call.data }),
        ...(call.value === undefined ? {} : { value: numberToHex(call.value) })
      }]).pipe(Effect.mapError(failed(label)), Effect.map((hash): Sent => ({ hash: hash as Hex, label }))), {
      concurrency: "unbounded"
    })
    pool.push(...sent)
  })

  const receiptOf = (sent: Sent) =>
    rpc.read(MaybeReceipt, "eth_getTransactionReceipt", [sent.hash]).pipe(
      Effect.mapError(failed(sent.label)),
      Effect.flatMap((answer) =>
        answer === null
          ? Effect.fail(new DevnetError({ message: `${sent.label} was queued but not mined (${sent.hash})` }))
          : Effect.succeed(formatTransactionReceipt(answer))
      ),
      Effect.filterOrFail(
        (mined) => mined.status === "success",
        (mined) =>
          new DevnetError({
            message: `${sent.label} reverted in block ${mined.blockNumber} (${mined.transactionHash})`
          })
      )
    )

  /** Hands what is queued to anvil's pool, unmined. */
  const submit: Effect.Effect<void, DevnetError> = Effect.suspend(() => {
    const queued = queue
    queue = []
    return Effect.forEach(runsBySender(queued), sendRun, { discard: true })
  })

  /** Mines everything sent or queued as one block, at the clock's moment if one was set. Receipts are
   * checked later, all at once (`checked`), so that a block costs no extra round trip. */
  const flush: Effect.Effect<void, DevnetError> = Effect.suspend(() => {
    if (queue.length === 0 && pool.length === 0) return Effect.void
    return Effect.gen(function*() {
      yield* submit
      unchecked.push(...pool)
      pool = []
      const at = nextTimestamp
      nextTimestamp = undefined
      yield* rpc.request("evm_mine", at === undefined ? [] : [at]).pipe(Effect.mapError(failed("evm_mine")))
    })
  })

  /** Mines, then checks every receipt not yet checked: fails with the first revert's label. */
  const checked: Effect.Effect<ReadonlyArray<TransactionReceipt>, DevnetError> = Effect.zipRight(
    flush,
    Effect.suspend(() => {
      const mined = unchecked
      unchecked = []
      return Effect.forEach(mined, receiptOf, { concurrency: "unbounded" })
    })
  )

  const request = (method: string, params: ReadonlyArray<unknown>, label = method) =>
    Effect.zipRight(flush, rpc.request(method, params).pipe(Effect.mapError(failed(label))))
  const readRpc = <A, I>(schema: Schema.Schema<A, I>, method: string, params: ReadonlyArray<unknown>, label = method) =>
    Effect.zipRight(flush, rpc.read(schema, method, params).pipe(Effect.mapError(failed(label))))

  /** Queues a transaction; it is sent and mined with the next block, its receipt checked later. */
  const send = (from: Address, call: Call, label: string): Effect.Effect<void> =>
    Effect.sync(() => void queue.push({ from, call, label }))

  /** The next block's timestamp: what is queued is mined first, at the moment it was queued for. */
  const at = (timestamp: number) => Effect.map(flush, () => void (nextTimestamp = timestamp))

  /** Sends and mines at once, for a caller that needs the receipt (a created address, an event). */
  const sendMined = (from: Address, call: Call, label: string): Effect.Effect<TransactionReceipt, DevnetError> =>
    Effect.zipRight(send(from, call, label), checked).pipe(
      Effect.map((receipts) => receipts[receipts.length - 1] as TransactionReceipt)
    )

  const callOf = (contract: Contract, functionName: string, args: ReadonlyArray<unknown>, value?: bigint): Call => ({
    to: contract.address,
    data: encodeFunctionData({ abi: contract.abi, functionName, args } as never),
    ...(value === undefined ? {} : { value })
  })

  const write = (
    from: Address,
    contract: Contract,
    functionName: string,
    args: ReadonlyArray<unknown> = [],
    value?: bigint
  ) => send(from, callOf(contract, functionName, args, value), functionName)

  const writeMined = (from: Address, contract: Contract, functionName: string, args: ReadonlyArray<unknown> = []) =>
    sendMined(from, callOf(contract, functionName, args), functionName)

  const deploy = Effect.fn("Tx.deploy")(function*(
    from: Address,
    artifact: { readonly abi: Abi; readonly bytecode: Hex },
    args: ReadonlyArray<unknown>,
    label: string
  ) {
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never)
    const mined = yield* sendMined(from, { data }, `deploy ${label}`)
    if (mined.contractAddress == null) {
      return yield* new DevnetError({ message: `deploy ${label}: no contract created` })
    }
    return mined.contractAddress
  })

  /** A contract read sees what is queued without mining it: anvil runs its pool for the pending block. */
  const read = <A>(contract: Contract, functionName: string, args: ReadonlyArray<unknown> = []) =>
    Effect.zipRight(
      submit,
      rpc.use(
        functionName,
        (client) =>
          client.readContract(
            { address: contract.address, abi: contract.abi, functionName, args, blockTag: "pending" } as never
          )
      ).pipe(Effect.map((result) => result as A), Effect.mapError(failed(`read ${functionName}`)))
    )

  /** Automine off and room in a block for a whole phase: from here on, sends queue. */
  const begin = Effect.gen(function*() {
    const latest = yield* readRpc(GasLimit, "eth_getBlockByNumber", ["latest", false])
    servedGasLimit = latest.gasLimit
    yield* request("evm_setAutomine", [false])
    yield* request("evm_setBlockGasLimit", [numberToHex(QUEUE_BLOCK_GAS)])
  })

  /** Mines what is left, then puts back the block gas limit and automine for the served chain. */
  const end = Effect.gen(function*() {
    yield* checked
    if (servedGasLimit !== undefined) yield* request("evm_setBlockGasLimit", [servedGasLimit])
    yield* request("evm_setAutomine", [true])
  })

  return { request, readRpc, send, sendMined, write, writeMined, deploy, read, at, begin, end }
}

export type Tx = ReturnType<typeof makeTx>

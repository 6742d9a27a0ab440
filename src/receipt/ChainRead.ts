/**
 * Everything a receipt reads from the chain, sent together: each listed transaction and its receipt,
 * the taker's code, and the router's `PlanExecuted` logs for the quote's tag and taker since the block
 * the swap was simulated at. The transport batches the per-hash calls into one round trip; the logs
 * query goes beside them. Raw JSON-RPC, because viem's actions throw on a hash the node does not know,
 * which for a receipt is just "not mined yet".
 */
import { Effect, Schema } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { RpcHex } from "../../schema/Chain.js"
import { planExecutedTopics, quoteTag } from "../execution/RouterPlan.js"

const RpcLog = Schema.Struct({
  address: RpcHex,
  topics: Schema.Array(RpcHex),
  data: RpcHex,
  blockNumber: RpcHex,
  transactionHash: RpcHex,
  logIndex: RpcHex
})
export type RpcLog = typeof RpcLog.Type

const RpcTransaction = Schema.Struct({
  hash: RpcHex,
  from: RpcHex,
  to: Schema.NullOr(RpcHex),
  input: RpcHex,
  value: RpcHex,
  gas: RpcHex,
  blockNumber: Schema.NullOr(RpcHex)
})
export type RpcTransaction = typeof RpcTransaction.Type

const RpcReceipt = Schema.Struct({
  transactionHash: RpcHex,
  blockNumber: RpcHex,
  status: RpcHex,
  gasUsed: RpcHex,
  logs: Schema.Array(RpcLog)
})
export type RpcReceipt = typeof RpcReceipt.Type

/** A listed hash as the node knows it: `transaction` null when it does not know it at all. */
export interface Listed {
  readonly hash: RpcHex
  readonly transaction: RpcTransaction | null
  readonly receipt: RpcReceipt | null
}

export interface ChainView {
  readonly listed: ReadonlyArray<Listed>
  readonly takerCode: RpcHex
  readonly logs: ReadonlyArray<RpcLog>
}

export interface ReadInput {
  readonly quoteId: string
  readonly txHashes: ReadonlyArray<string>
  readonly taker: RpcHex
  readonly router: RpcHex
  readonly fromBlock: number
}

export const readChain = Effect.fn("Receipt.readChain")(function*(input: ReadInput) {
  const rpc = yield* ChainRpc
  const one = (hash: RpcHex) =>
    Effect.all({
      hash: Effect.succeed(hash),
      transaction: rpc.read(Schema.NullOr(RpcTransaction), "eth_getTransactionByHash", [hash]),
      receipt: rpc.read(Schema.NullOr(RpcReceipt), "eth_getTransactionReceipt", [hash])
    }, { concurrency: "unbounded" })
  const view: ChainView = yield* Effect.all({
    listed: Effect.forEach(input.txHashes.map((hash) => hash.toLowerCase() as RpcHex), one, {
      concurrency: "unbounded"
    }),
    takerCode: rpc.read(RpcHex, "eth_getCode", [input.taker, "latest"]),
    logs: rpc.read(Schema.Array(RpcLog), "eth_getLogs", [{
      address: input.router,
      fromBlock: `0x${input.fromBlock.toString(16)}`,
      toBlock: "latest",
      topics: planExecutedTopics(quoteTag(input.quoteId), input.taker)
    }])
  }, { concurrency: "unbounded" })
  return view
})

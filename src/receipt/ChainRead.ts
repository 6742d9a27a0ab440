/**
 * Everything a receipt reads from the chain, sent together: each listed transaction and its receipt,
 * the taker's code, and the router's `PlanExecuted` logs for the quote's tag and taker since the block
 * the swap was simulated at. The transport batches the per-hash calls into one round trip; the logs
 * query goes beside them. Raw JSON-RPC, because viem's actions throw on a hash the node does not know,
 * which for a receipt is just "not mined yet".
 */
import { Effect } from "effect"
import { pad } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { planExecutedTopic, quoteTag } from "../execution/RouterPlan.js"

type Hex = `0x${string}`

export interface RpcLog {
  readonly address: Hex
  readonly topics: ReadonlyArray<Hex>
  readonly data: Hex
  readonly blockNumber: Hex
  readonly transactionHash: Hex
  readonly logIndex: Hex
}

export interface RpcTransaction {
  readonly hash: Hex
  readonly from: Hex
  readonly to: Hex | null
  readonly input: Hex
  readonly value: Hex
  readonly gas: Hex
  readonly blockNumber: Hex | null
}

export interface RpcReceipt {
  readonly transactionHash: Hex
  readonly blockNumber: Hex
  readonly status: Hex
  readonly gasUsed: Hex
  readonly logs: ReadonlyArray<RpcLog>
}

/** A listed hash as the node knows it: `transaction` null when it does not know it at all. */
export interface Listed {
  readonly hash: Hex
  readonly transaction: RpcTransaction | null
  readonly receipt: RpcReceipt | null
}

export interface ChainView {
  readonly listed: ReadonlyArray<Listed>
  readonly takerCode: Hex
  readonly logs: ReadonlyArray<RpcLog>
}

export interface ReadInput {
  readonly quoteId: string
  readonly txHashes: ReadonlyArray<string>
  readonly taker: Hex
  readonly router: Hex
  readonly fromBlock: number
}

export const readChain = Effect.fn("Receipt.readChain")(function*(input: ReadInput) {
  const rpc = yield* ChainRpc
  const one = (hash: Hex) =>
    Effect.all({
      hash: Effect.succeed(hash),
      transaction: rpc.request<RpcTransaction | null>("eth_getTransactionByHash", [hash]),
      receipt: rpc.request<RpcReceipt | null>("eth_getTransactionReceipt", [hash])
    }, { concurrency: "unbounded" })
  const view: ChainView = yield* Effect.all({
    listed: Effect.forEach(input.txHashes.map((hash) => hash.toLowerCase() as Hex), one, {
      concurrency: "unbounded"
    }),
    takerCode: rpc.request<Hex>("eth_getCode", [input.taker, "latest"]),
    logs: rpc.request<ReadonlyArray<RpcLog>>("eth_getLogs", [{
      address: input.router,
      fromBlock: `0x${input.fromBlock.toString(16)}`,
      toBlock: "latest",
      topics: [planExecutedTopic, quoteTag(input.quoteId), pad(input.taker)]
    }])
  }, { concurrency: "unbounded" })
  return view
})

/**
 * The bootstrap's few chain actions, over the project's one `ChainRpc` boundary.
 *
 * Transactions go out as `eth_sendTransactionSync` (EIP-7966) from anvil's unlocked accounts: anvil
 * fills nonce and fees, mines the transaction (automine) and answers with its receipt, so a bootstrap
 * of hundreds of transactions costs one round trip each. (Plain `eth_sendTransaction` can answer before
 * the receipt is queryable.)
 * The gas limit is fixed and generous rather than estimated: anvil estimates against the current block,
 * and once the bootstrap moves the clock (evm_setNextBlockTimestamp) a v3 oracle write can cost more
 * in the mined block than in the estimate, running out of gas. Every receipt is checked, so a revert
 * stops the bootstrap with the step's label instead of leaving a silently broken market.
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
import { DevnetError } from "./DevnetError.js"

type Rpc = Context.Tag.Service<ChainRpc>

/** Below the 30M block gas limit; each transaction gets a block of its own under automine. */
const GAS_LIMIT = numberToHex(25_000_000)

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

const failed = (label: string) => (error: { readonly message: string; readonly hint?: string | undefined }) =>
  new DevnetError({ message: `${label}: ${error.hint ?? error.message}`, cause: error })

export const makeTx = (rpc: Rpc) => {
  const request = (method: string, params: ReadonlyArray<unknown>, label = method) =>
    rpc.request(method, params).pipe(Effect.mapError(failed(label)))
  const readRpc = <A, I>(schema: Schema.Schema<A, I>, method: string, params: ReadonlyArray<unknown>, label = method) =>
    rpc.read(schema, method, params).pipe(Effect.mapError(failed(label)))

  const send = (from: Address, call: Call, label: string): Effect.Effect<TransactionReceipt, DevnetError> =>
    readRpc(MinedReceipt, "eth_sendTransactionSync", [{
      from,
      gas: GAS_LIMIT,
      ...(call.to === undefined ? {} : { to: call.to }),
      ...(call.data === undefined ? {} : { data: call.data }),
      ...(call.value === undefined ? {} : { value: numberToHex(call.value) })
    }], label).pipe(
      Effect.map(formatTransactionReceipt),
      Effect.filterOrFail(
        (mined) => mined.status === "success",
        (mined) =>
          new DevnetError({ message: `${label} reverted in block ${mined.blockNumber} (${mined.transactionHash})` })
      )
    )

  const write = (
    from: Address,
    contract: Contract,
    functionName: string,
    args: ReadonlyArray<unknown> = [],
    value?: bigint
  ) =>
    send(
      from,
      {
        to: contract.address,
        data: encodeFunctionData({ abi: contract.abi, functionName, args } as never),
        ...(value === undefined ? {} : { value })
      },
      functionName
    )

  const deploy = Effect.fn("Tx.deploy")(function*(
    from: Address,
    artifact: { readonly abi: Abi; readonly bytecode: Hex },
    args: ReadonlyArray<unknown>,
    label: string
  ) {
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never)
    const mined = yield* send(from, { data }, `deploy ${label}`)
    if (mined.contractAddress == null) {
      return yield* new DevnetError({ message: `deploy ${label}: no contract created` })
    }
    return mined.contractAddress
  })

  const read = <A>(contract: Contract, functionName: string, args: ReadonlyArray<unknown> = []) =>
    rpc.use(
      functionName,
      (client) => client.readContract({ address: contract.address, abi: contract.abi, functionName, args } as never)
    ).pipe(Effect.map((result) => result as A), Effect.mapError(failed(`read ${functionName}`)))

  return { request, readRpc, send, write, deploy, read }
}

export type Tx = ReturnType<typeof makeTx>

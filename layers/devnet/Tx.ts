/**
 * The bootstrap's few chain actions, over the project's one `ChainRpc` boundary.
 *
 * Transactions go out as `eth_sendTransaction` from anvil's unlocked accounts: anvil fills nonce, gas
 * and fees and, with automine, has mined the transaction when the call returns, so a bootstrap of
 * hundreds of transactions costs one round trip each. A transaction that would revert fails its gas
 * estimate and surfaces here with the step's label instead of being mined.
 */
import { type Context, Effect } from "effect"
import {
  type Abi,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  type Hash,
  type Hex,
  numberToHex
} from "viem"
import type { ChainRpc } from "../ChainRpc.js"
import { DevnetError } from "./DevnetError.js"

type Rpc = Context.Tag.Service<ChainRpc>

export interface Contract {
  readonly address: Address
  readonly abi: Abi
}

export interface Call {
  readonly to?: Address
  readonly data?: Hex
  readonly value?: bigint
}

const failed = (label: string) => (error: { readonly message: string; readonly hint?: string | undefined }) =>
  new DevnetError({ message: `${label}: ${error.hint ?? error.message}`, cause: error })

export const makeTx = (rpc: Rpc) => {
  const request = <A>(method: string, params: ReadonlyArray<unknown>, label = method) =>
    rpc.request<A>(method, params).pipe(Effect.mapError(failed(label)))

  const send = (from: Address, call: Call, label: string) =>
    request<Hash>("eth_sendTransaction", [{
      from,
      ...(call.to === undefined ? {} : { to: call.to }),
      ...(call.data === undefined ? {} : { data: call.data }),
      ...(call.value === undefined ? {} : { value: numberToHex(call.value) })
    }], label)

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

  const receipt = (hash: Hash, label: string) =>
    rpc.use(label, (client) => client.getTransactionReceipt({ hash })).pipe(Effect.mapError(failed(label)))

  const deploy = Effect.fn("Tx.deploy")(function*(
    from: Address,
    artifact: { readonly abi: Abi; readonly bytecode: Hex },
    args: ReadonlyArray<unknown>,
    label: string
  ) {
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never)
    const hash = yield* send(from, { data }, `deploy ${label}`)
    const mined = yield* receipt(hash, `deploy ${label}`)
    if (mined.contractAddress == null || mined.status !== "success") {
      return yield* new DevnetError({ message: `deploy ${label}: no contract created` })
    }
    return mined.contractAddress
  })

  const read = <A>(contract: Contract, functionName: string, args: ReadonlyArray<unknown> = []) =>
    rpc.use(
      functionName,
      (client) => client.readContract({ address: contract.address, abi: contract.abi, functionName, args } as never)
    ).pipe(Effect.map((result) => result as A), Effect.mapError(failed(`read ${functionName}`)))

  return { request, send, write, receipt, deploy, read }
}

export type Tx = ReturnType<typeof makeTx>

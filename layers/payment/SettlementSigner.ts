/**
 * The in-process facilitator's hands on the chain: a viem signer (the settlement key) on the
 * `ChainRpc` boundary's transport, shaped as `@x402/evm` wants it. Two things the library does not do
 * for us: broadcasts are serialised, so concurrent settlements from one key never race for a nonce;
 * and every verify or settle call records whether the node failed to answer, because the library turns
 * an unreachable node into "invalid signature", and the gate must answer that as a facilitator failure,
 * not as the payer's fault. The record is kept per call in async-local storage, so one signer (and one
 * scheme, with one pending-settlement store) serves every call. The same record holds the call's
 * `eth_getCode` answers: the library's exact verify asks for the payer's code twice in a row (to
 * classify an ERC-6492 signature, then to choose ECDSA or ERC-1271), and a paid call should not wait
 * for the second round trip to learn what the first one said.
 *
 * The payment token's code is asked until the node first shows it and then remembered (a token's code
 * does not go away). A failed lookup of it answers "no code" to the library and records the node's
 * failure, so the verdict is the node's fault (502), never the payer's: it must not reject, because the
 * library's exact verify starts that lookup first and leaves it unawaited when it returns or throws
 * early (a refused signature, a node failing under it), and a rejection with no handler ends a Node
 * process (test/payment/verifyNodeFailure.test.ts).
 */
import type { FacilitatorEvmSigner } from "@x402/evm"
import { AsyncLocalStorage } from "node:async_hooks"
import {
  BaseError,
  type GetCodeReturnType,
  HttpRequestError,
  type PrivateKeyAccount,
  publicActions,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError
} from "viem"
import type { ChainWallet } from "../ChainRpc.js"

/** Whether an error means the node could not be reached, as opposed to the node answering "no". */
export const isTransportFailure = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((cause) =>
      cause instanceof HttpRequestError || cause instanceof TimeoutError ||
      cause instanceof WebSocketRequestError || cause instanceof SocketClosedError
    ) !== null

/** What one verify or settle call saw of the node. */
export interface ChainProbe {
  transportFailure: unknown
  /** Code asked for in this call, by lowercased address. */
  readonly codes: Map<string, Promise<GetCodeReturnType>>
}

export interface SettlementSignerOptions {
  /** How often a settlement's receipt is polled for. */
  readonly receiptPollMs: number
  /** How long a settlement's receipt is waited for before it is reported pending. */
  readonly receiptTimeoutMs: number
  /** The payment token's address. */
  readonly asset: string
}

/** One signer per key; `probed` runs one verify or settle call with its own record of node failures. */
export const settlementSigner = (
  wallet: ChainWallet,
  account: PrivateKeyAccount,
  options: SettlementSignerOptions
) => {
  const client = wallet.extend(publicActions)
  let broadcasts: Promise<unknown> = Promise.resolve()
  const oneAtATime = <A>(send: () => Promise<A>): Promise<A> => {
    const sent = broadcasts.then(send, send)
    broadcasts = sent.catch(() => undefined)
    return sent
  }
  const probes = new AsyncLocalStorage<ChainProbe>()
  /** Records `error` as the node's failure on the verify or settle call it happened under. */
  const nodeFailed = (error: unknown) => {
    const probe = probes.getStore()
    if (probe !== undefined) probe.transportFailure ??= error
  }
  const asset = options.asset.toLowerCase()
  let assetCode: GetCodeReturnType
  // Only the library's verify and settle ask, always inside `probed`: the failure is recorded there.
  const codeOfAsset = (args: { address: `0x${string}` }): Promise<GetCodeReturnType> =>
    assetCode !== undefined ? Promise.resolve(assetCode) : client.getCode(args).then(
      (code) => {
        if (code !== undefined && code !== "0x") assetCode = code
        return code
      },
      (error: unknown) => {
        nodeFailed(error)
        return undefined
      }
    )
  const watched = <A>(run: () => Promise<A>): Promise<A> =>
    run().catch((error: unknown) => {
      if (isTransportFailure(error)) nodeFailed(error)
      throw error
    })
  const signer: FacilitatorEvmSigner = {
    getAddresses: () => [account.address],
    readContract: (args) => watched(() => client.readContract(args as never)),
    verifyTypedData: (args) => watched(() => client.verifyTypedData(args as never)),
    getCode: (args) => {
      if (args.address.toLowerCase() === asset) return codeOfAsset(args)
      const probe = probes.getStore()
      const read = () => watched(() => client.getCode(args))
      if (probe === undefined) return read()
      const key = args.address.toLowerCase()
      const known = probe.codes.get(key) ?? read()
      probe.codes.set(key, known)
      return known
    },
    writeContract: (args) =>
      watched(() => oneAtATime(() => client.writeContract({ ...args, account, chain: wallet.chain } as never))),
    sendTransaction: (args) =>
      watched(() => oneAtATime(() => client.sendTransaction({ ...args, account, chain: wallet.chain }))),
    waitForTransactionReceipt: (args) =>
      watched(() =>
        client.waitForTransactionReceipt({
          hash: args.hash,
          pollingInterval: options.receiptPollMs,
          timeout: args.timeout ?? options.receiptTimeoutMs
        })
      )
  }
  const probed = <A>(call: () => Promise<A>) => {
    const probe: ChainProbe = { transportFailure: undefined, codes: new Map() }
    return { probe, answer: probes.run(probe, call) }
  }
  return { address: account.address, signer, probed }
}

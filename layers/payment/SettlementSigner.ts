/**
 * The in-process facilitator's hands on the chain: a viem signer (the settlement key) on the
 * `ChainRpc` boundary's transport, shaped as `@x402/evm` wants it. Two things the library does not do
 * for us: broadcasts are serialised, so concurrent settlements from one key never race for a nonce;
 * and every call records whether the node failed to answer, because the library turns an unreachable
 * node into "invalid signature", and the gate must answer that as a facilitator failure, not as the
 * payer's fault.
 */
import type { FacilitatorEvmSigner } from "@x402/evm"
import {
  BaseError,
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
}

export interface SettlementSignerOptions {
  /** How often a settlement's receipt is polled for. */
  readonly receiptPollMs: number
  /** How long a settlement's receipt is waited for before it is reported pending. */
  readonly receiptTimeoutMs: number
}

/** One signer per key; `forCall` hands each verify or settle call a view that records node failures. */
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
  const forCall = (probe: ChainProbe): FacilitatorEvmSigner => {
    const watched = <A>(run: () => Promise<A>): Promise<A> =>
      run().catch((error: unknown) => {
        if (isTransportFailure(error)) probe.transportFailure ??= error
        throw error
      })
    return {
      getAddresses: () => [account.address],
      readContract: (args) => watched(() => client.readContract(args as never)),
      verifyTypedData: (args) => watched(() => client.verifyTypedData(args as never)),
      getCode: (args) => watched(() => client.getCode(args)),
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
  }
  return { address: account.address, forCall }
}

/**
 * The agent's side of a trade: the wallet that signs the Permit2 permit and sends the service's unsigned
 * transactions exactly as returned. The client never creates a connection to the chain: the agent hands
 * it its own viem clients (`viemWallet`), or anything that does the same.
 */
import type { Account, Address, Chain, Hex, PublicClient, Transport, WalletClient } from "viem"
import type { SwapResponse, UnsignedTransaction } from "./Types.js"

/** The Permit2 `PermitSingle` typed data a swap answer asks the taker to sign. */
export type PermitTypedData = SwapResponse["signatures"][number]["typedData"]

export interface Sent {
  readonly hash: Hex
  readonly status: "success" | "reverted"
  readonly blockNumber: bigint
  readonly gasUsed: bigint
}

export interface TradeWallet {
  readonly address: Address
  readonly signTypedData: (typedData: PermitTypedData) => Promise<Hex>
  /** Sends one transaction as returned (to, data, value, gas) and waits until it is mined. */
  readonly send: (transaction: UnsignedTransaction) => Promise<Sent>
}

/** A `TradeWallet` over the agent's viem clients (a wallet client with its account, and a reader). */
export const viemWallet = (
  wallet: WalletClient<Transport, Chain | undefined, Account>,
  reader: PublicClient
): TradeWallet => ({
  address: wallet.account.address,
  signTypedData: (typedData) => wallet.signTypedData({ account: wallet.account, ...typedData }),
  send: async (transaction) => {
    const hash = await wallet.sendTransaction({
      account: wallet.account,
      chain: wallet.chain ?? null,
      to: transaction.to as Address,
      data: transaction.data as Hex,
      value: BigInt(transaction.value),
      gas: BigInt(transaction.gas)
    })
    const mined = await reader.waitForTransactionReceipt({ hash })
    return { hash, status: mined.status, blockNumber: mined.blockNumber, gasUsed: mined.gasUsed }
  }
})

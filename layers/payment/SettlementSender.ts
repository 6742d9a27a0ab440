/**
 * How broadcast settlements leave the settlement key (docs/payments.md#settlement-modes). The key's
 * transactions are numbered here, by a local nonce counter, so settlements go out back to back without
 * waiting for each other's receipts; a settlement not mined in time is signed again with the same nonce
 * and a higher fee, so one transaction the pool does not mine never holds up those numbered after it.
 * Signing is local (no RPC call); sending is one `eth_sendRawTransaction`.
 */
import {
  type Hex,
  type PrivateKeyAccount,
  publicActions,
  type TransactionReceipt,
  TransactionReceiptNotFoundError
} from "viem"
import type { ChainWallet } from "../ChainRpc.js"
import type { SettlementCall } from "./Transfer.js"

interface Fees {
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
}

/** One nonce of the settlement key and every transaction signed for it, newest last. */
export interface SentSettlement {
  readonly call: SettlementCall
  readonly nonce: number
  readonly hashes: Array<Hex>
  fees: Fees
}

export interface SenderOptions {
  readonly pollMs: number
  readonly replaceAfterMs: number
}

// A `transferWithAuthorization` costs about 60k gas (a smart wallet's ERC-1271 check more); a fixed
// limit saves an `eth_estimateGas` on every paid call, and only the gas used is paid for.
const SETTLEMENT_GAS = 200_000n
// Nodes replace a pooled transaction only for at least 10 % more fee: a quarter more clears that.
const bump = (fee: bigint) => fee * 125n / 100n
// How old the fees a settlement is priced with may be before a refresh is asked for.
const FEES_TTL_MS = 250

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener("abort", () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })

export const settlementSender = (wallet: ChainWallet, account: PrivateKeyAccount, options: SenderOptions) => {
  const client = wallet.extend(publicActions)
  const chainId = wallet.chain.id
  let nextNonce: number | undefined
  let queue: Promise<unknown> = Promise.resolve()
  // Nonces are handed out and sent in order: a node keeps a later nonce waiting until the earlier arrives.
  const inOrder = <A>(run: () => Promise<A>): Promise<A> => {
    const done = queue.then(run, run)
    queue = done.catch(() => undefined)
    return done
  }
  // Fees move at most once a block: a paid call uses the last ones read and a refresh is asked for off
  // its path; a settlement priced a block behind and not mined is replaced at today's fee (below).
  let fees: { at: number; value: Promise<Fees> } | undefined
  const refresh = () => {
    const value = client.estimateFeesPerGas()
    const next = { at: Date.now(), value }
    value.then(() => (fees = next), () => undefined)
    return value
  }
  const currentFees = (): Promise<Fees> => {
    if (fees === undefined) return refresh()
    if (Date.now() - fees.at > FEES_TTL_MS) {
      fees.at = Date.now()
      refresh().catch(() => undefined)
    }
    return fees.value
  }

  const signAndSend = async (call: SettlementCall, nonce: number, given: Fees) => {
    const raw = await account.signTransaction({
      type: "eip1559",
      chainId,
      to: call.to,
      data: call.data,
      gas: SETTLEMENT_GAS,
      nonce,
      ...given
    })
    return client.sendRawTransaction({ serializedTransaction: raw })
  }

  /** Sends `call` with the next nonce; answers once the node has it in its pool. */
  const send = async (call: SettlementCall): Promise<SentSettlement> => {
    const given = await currentFees()
    return inOrder(async () => {
      nextNonce ??= await client.getTransactionCount({ address: account.address, blockTag: "pending" })
      const nonce = nextNonce
      try {
        const hash = await signAndSend(call, nonce, given)
        nextNonce = nonce + 1
        return { call, nonce, hashes: [hash], fees: given }
      } catch (error) {
        // The nonce may be taken (another sender on this key) or still free: the node says which next time.
        nextNonce = undefined
        throw error
      }
    })
  }

  const receiptOf = async (hash: Hex) => {
    try {
      return await client.getTransactionReceipt({ hash })
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined
      throw error
    }
  }
  const anyReceipt = async (sent: SentSettlement) => {
    for (const hash of sent.hashes) {
      const receipt = await receiptOf(hash)
      if (receipt !== undefined) return receipt
    }
    return undefined
  }

  /** The same nonce signed again with a quarter more fee (or today's, if higher). */
  const replace = async (sent: SentSettlement) => {
    const today = await currentFees()
    const higher = {
      maxFeePerGas: [bump(sent.fees.maxFeePerGas), today.maxFeePerGas].reduce((a, b) => a > b ? a : b),
      maxPriorityFeePerGas: [bump(sent.fees.maxPriorityFeePerGas), today.maxPriorityFeePerGas].reduce((a, b) =>
        a > b ? a : b
      )
    }
    const hash = await signAndSend(sent.call, sent.nonce, higher)
    sent.fees = higher
    sent.hashes.push(hash)
  }

  /**
   * Waits until one of the nonce's transactions is mined and answers its receipt, replacing it whenever
   * it waited `replaceAfterMs`. Fails when the nonce was used by a transaction not sent here, or when
   * `deadlineMs` (the authorization's end) passed unmined.
   */
  const confirm = async (sent: SentSettlement, deadlineMs: number, signal: AbortSignal) => {
    let sentAt = Date.now()
    while (!signal.aborted) {
      const receipt = await anyReceipt(sent).catch(() => undefined)
      if (receipt !== undefined) return receipt
      if (Date.now() - sentAt >= options.replaceAfterMs) {
        if (Date.now() > deadlineMs) throw new Error("the settlement was not mined before its authorization expired")
        const mined = await client.getTransactionCount({ address: account.address, blockTag: "latest" })
        if (mined > sent.nonce) {
          const late = await anyReceipt(sent)
          if (late !== undefined) return late
          throw new Error(`nonce ${sent.nonce} of the settlement key was used by another transaction`)
        }
        await replace(sent).catch(() => undefined)
        sentAt = Date.now()
      }
      await sleep(options.pollMs, signal)
    }
    throw new Error("stopped before the settlement was confirmed")
  }

  return { address: account.address, send, confirm }
}

export type SettlementSender = ReturnType<typeof settlementSender>
export type { TransactionReceipt }

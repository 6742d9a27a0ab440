/**
 * How broadcast settlements leave the settlement key (docs/payments.md#settlement-modes). The key's
 * transactions are numbered here, by a local nonce counter, and signed here, so a settlement's hash is
 * known before it is sent: the answer can name it and the send can follow the answer. Sends go out in
 * nonce order, back to back, without waiting for each other's receipts. Every nonce signed is followed
 * until it is mined: a settlement not mined in time, or whose send failed, is signed again with the same
 * nonce and a higher fee, and one that can no longer be settled (its authorization ended) is replaced by
 * an empty transaction, so no nonce is ever left as a gap that holds up those numbered after it.
 */
import {
  type Hex,
  keccak256,
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
  /** The first transaction, signed and not yet handed to the node (`submit`). */
  readonly raw: Hex
  /** When a transaction for this nonce was last sent or tried again; undefined until the node accepts one. */
  sentAt: number | undefined
  /** Settles once the send before it in nonce order has been tried. */
  readonly previous: Promise<unknown>
  readonly tried: () => void
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
  let nextNonce: Promise<number> | undefined
  // The last send tried, in nonce order: a node keeps a later nonce waiting until the earlier arrives.
  let lastTried: Promise<unknown> = Promise.resolve()
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
  const pendingCount = () => client.getTransactionCount({ address: account.address, blockTag: "pending" })

  const signed = (call: SettlementCall, nonce: number, given: Fees) =>
    account.signTransaction({
      type: "eip1559",
      chainId,
      to: call.to,
      data: call.data,
      gas: SETTLEMENT_GAS,
      nonce,
      ...given
    })

  /** Numbers and signs `call` without sending it: its hash is the one the node will give it. */
  const sign = async (call: SettlementCall): Promise<SentSettlement> => {
    const given = await currentFees()
    const counter = nextNonce ?? pendingCount()
    nextNonce = counter.then((nonce) => nonce + 1)
    // A failed first read takes no nonce: the next call reads again.
    nextNonce.catch(() => (nextNonce = undefined))
    // Sends are queued in the order nonces are handed out, here, with nothing awaited in between.
    const previous = lastTried
    let tried = () => {}
    lastTried = new Promise<void>((resolve) => (tried = resolve))
    try {
      const nonce = await counter
      const raw = await signed(call, nonce, given)
      return { call, nonce, hashes: [keccak256(raw)], fees: given, raw, sentAt: undefined, previous, tried }
    } catch (error) {
      tried()
      throw error
    }
  }

  /**
   * Hands the signed settlement to the node, after the one numbered before it. A refusal is not thrown:
   * `confirm` sends the nonce again. Another sender on this key may have taken nonces: the counter then
   * moves past them (never back, which would reuse a nonce signed here and not yet mined).
   */
  const submit = async (sent: SentSettlement) => {
    await sent.previous
    try {
      await client.sendRawTransaction({ serializedTransaction: sent.raw })
      sent.sentAt = Date.now()
    } catch {
      const known = await pendingCount().catch(() => 0)
      const counter = nextNonce
      if (counter !== undefined) nextNonce = counter.then((next) => Math.max(next, known))
    } finally {
      sent.tried()
    }
    return sent.sentAt !== undefined
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

  /**
   * The same nonce signed again with a quarter more fee (or today's, if higher): the settlement, or once
   * it can no longer be settled an empty transfer to the key itself, which only uses up the nonce.
   */
  const replace = async (sent: SentSettlement, empty: boolean) => {
    const today = await currentFees()
    const higher = {
      maxFeePerGas: [bump(sent.fees.maxFeePerGas), today.maxFeePerGas].reduce((a, b) => a > b ? a : b),
      maxPriorityFeePerGas: [bump(sent.fees.maxPriorityFeePerGas), today.maxPriorityFeePerGas].reduce((a, b) =>
        a > b ? a : b
      )
    }
    const raw = await signed(empty ? { to: account.address, data: "0x" } : sent.call, sent.nonce, higher)
    sent.fees = higher
    sent.hashes.push(keccak256(raw))
    await client.sendRawTransaction({ serializedTransaction: raw })
    sent.sentAt = Date.now()
  }

  /**
   * Waits until the nonce is mined and answers the settlement's receipt, sending the nonce again whenever
   * none of its transactions was accepted or mined within `replaceAfterMs`. Past `deadlineMs` (the
   * authorization's end) the nonce is used up by an empty transaction and the settlement fails, as it
   * does when the nonce was used by a transaction not sent here.
   */
  const confirm = async (sent: SentSettlement, deadlineMs: number, signal: AbortSignal) => {
    while (!signal.aborted) {
      const receipt = await anyReceipt(sent).catch(() => undefined)
      if (receipt !== undefined) {
        if (receipt.to?.toLowerCase() === account.address.toLowerCase()) {
          throw new Error("the settlement was not mined before its authorization expired")
        }
        return receipt
      }
      if (sent.sentAt === undefined || Date.now() - sent.sentAt >= options.replaceAfterMs) {
        const mined = await client.getTransactionCount({ address: account.address, blockTag: "latest" })
          .catch(() => sent.nonce)
        if (mined > sent.nonce) {
          const late = await anyReceipt(sent)
          if (late !== undefined) continue
          throw new Error(`nonce ${sent.nonce} of the settlement key was used by another transaction`)
        }
        // A refused send waits the full interval before its next try, so a node refusing every send is
        // not asked in a tight loop.
        await replace(sent, Date.now() > deadlineMs).catch(() => (sent.sentAt = Date.now()))
      }
      await sleep(options.pollMs, signal)
    }
    throw new Error("stopped before the settlement was confirmed")
  }

  return { address: account.address, sign, submit, confirm }
}

export type SettlementSender = ReturnType<typeof settlementSender>
export type { TransactionReceipt }

/**
 * Following a broadcast settlement's nonce until it is mined (docs/payments.md#settlement-modes): a
 * settlement not mined in time, or whose send failed, is signed again with the same nonce and a higher
 * fee, and one that can no longer be settled (its authorization ended) is replaced by an empty
 * transaction, so no nonce is left as a gap that holds up those numbered after it. A node that stops
 * answering is waited for, but not forever: once the authorization has ended and the nonce's fill was
 * tried, `giveUpAfterMs` without an answer ends the follow with the settlement's fate unknown.
 *
 * A receipt can only appear with a new block, so the settlements followed at once share one poll: every
 * `pollMs` one head read wakes them all, and each asks for its receipts only when the head has moved
 * since it last looked. Polled one by one, a payer calling back to back keeps dozens of settlements
 * asking the node ten times a second each, on the event loop and the node that serve its next calls.
 */
import {
  type Hex,
  keccak256,
  type PrivateKeyAccount,
  type PublicActions,
  type TransactionReceipt,
  TransactionReceiptNotFoundError
} from "viem"
import type { Fees, SenderOptions, SentSettlement } from "./SettlementNonce.js"
import type { SettlementCall } from "./Transfer.js"

/** What the follower needs of the sender: its node, key, signing and today's fees. */
export interface FollowerParts {
  readonly client: Pick<
    PublicActions,
    "getBlockNumber" | "getTransactionReceipt" | "getTransactionCount" | "sendRawTransaction"
  >
  readonly account: PrivateKeyAccount
  readonly signed: (call: SettlementCall, nonce: number, fees: Fees) => Promise<Hex>
  readonly currentFees: () => Promise<Fees>
  readonly options: SenderOptions
}

/** The follow ended without a receipt: the node did not answer for `silentMs` past the authorization's end. */
export interface Unknown {
  readonly _tag: "Unknown"
  readonly silentMs: number
}

// Nodes replace a pooled transaction only for at least 10 % more fee: a quarter more clears that.
const bump = (fee: bigint) => fee * 125n / 100n
const higher = (a: bigint, b: bigint) => a > b ? a : b

export const settlementFollower = ({ account, client, currentFees, options, signed }: FollowerParts) => {
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

  // The shared poll: followers asleep until the next one, and the head it read (undefined: no answer).
  const asleep = new Set<() => void>()
  let poll: ReturnType<typeof setTimeout> | undefined
  let head: bigint | undefined
  const wake = async () => {
    const woken = [...asleep]
    asleep.clear()
    head = await client.getBlockNumber({ cacheTime: 0 }).catch(() => undefined)
    poll = undefined
    for (const resume of woken) resume()
    if (asleep.size > 0) poll = setTimeout(wake, options.pollMs)
  }
  /** Sleeps until the next shared poll has read the head, or `signal` aborts; answers that head. */
  const nextPoll = (signal: AbortSignal) =>
    new Promise<bigint | undefined>((resolve) => {
      // The listener leaves the signal when the poll wakes this follower: one follow sleeps many times.
      const resume = () => {
        signal.removeEventListener("abort", resume)
        asleep.delete(resume)
        resolve(head)
      }
      signal.addEventListener("abort", resume, { once: true })
      asleep.add(resume)
      poll ??= setTimeout(wake, options.pollMs)
    })

  /**
   * The same nonce signed again with a quarter more fee (or today's, if higher): the settlement, or once
   * it can no longer be settled an empty transfer to the key itself, which only uses up the nonce.
   */
  const replace = async (sent: SentSettlement, empty: boolean, signal: AbortSignal) => {
    const today = await currentFees()
    const fees = {
      maxFeePerGas: higher(bump(sent.fees.maxFeePerGas), today.maxFeePerGas),
      maxPriorityFeePerGas: higher(bump(sent.fees.maxPriorityFeePerGas), today.maxPriorityFeePerGas)
    }
    const raw = await signed(empty ? { to: account.address, data: "0x" } : sent.call, sent.nonce, fees)
    // Stopped while it was priced and signed (the service closed): a closed service sends nothing new.
    signal.throwIfAborted()
    sent.fees = fees
    sent.hashes.push(keccak256(raw))
    await client.sendRawTransaction({ serializedTransaction: raw })
    sent.sentAt = Date.now()
  }

  /**
   * Waits until the nonce is mined and answers the settlement's receipt, sending the nonce again whenever
   * none of its transactions was accepted or mined within `replaceAfterMs`. Past `deadlineMs` (the
   * authorization's end) the nonce is used up by an empty transaction and the settlement fails, as it
   * does when the nonce was used by a transaction not sent here. `Unknown` when the node stopped
   * answering (see above).
   */
  const confirm = async (
    sent: SentSettlement,
    deadlineMs: number,
    signal: AbortSignal
  ): Promise<TransactionReceipt | Unknown> => {
    let answeredAt = Date.now()
    let fillTried = false
    const answered = <A>(asked: Promise<A>, otherwise: A) =>
      asked.then((answer) => {
        answeredAt = Date.now()
        return answer
      }, () => otherwise)
    // Just sent, it is in no block yet: receipts are first asked at the first poll, then whenever the poll
    // read another head than the one they were last asked at, or none (the node not answering).
    let lookedAt: bigint | undefined
    let polled: bigint | undefined
    let woken = false
    const lookAt = (head: bigint | undefined) =>
      anyReceipt(sent).then((found) => {
        lookedAt = head
        return found
      })
    while (!signal.aborted) {
      const looking = woken && (polled === undefined || polled !== lookedAt)
      const receipt = looking ? await answered(lookAt(polled), undefined) : undefined
      if (receipt !== undefined) {
        if (receipt.to?.toLowerCase() === account.address.toLowerCase()) {
          throw new Error("the settlement was not mined before its authorization expired")
        }
        return receipt
      }
      const silentMs = Date.now() - answeredAt
      if (fillTried && silentMs >= options.giveUpAfterMs) return { _tag: "Unknown", silentMs }
      if (sent.sentAt === undefined || Date.now() - sent.sentAt >= options.replaceAfterMs) {
        const mined = await answered(
          client.getTransactionCount({ address: account.address, blockTag: "latest" }),
          sent.nonce
        )
        if (mined > sent.nonce) {
          const late = await anyReceipt(sent)
          if (late !== undefined) continue
          throw new Error(`nonce ${sent.nonce} of the settlement key was used by another transaction`)
        }
        const fill = Date.now() > deadlineMs
        fillTried ||= fill
        // A refused send waits the full interval before its next try, so a node refusing every send is
        // not asked in a tight loop.
        const replaced = await answered(replace(sent, fill, signal).then(() => true), false)
        if (!replaced) sent.sentAt = Date.now()
      }
      polled = await nextPoll(signal)
      woken = true
      if (polled !== undefined) answeredAt = Date.now()
    }
    throw new Error("stopped before the settlement was confirmed")
  }

  return confirm
}

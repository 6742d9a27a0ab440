/**
 * How broadcast settlements leave the settlement key (docs/payments.md#settlement-modes). The key's
 * transactions are numbered here, by a local nonce counter, and signed here, so a settlement's hash is
 * known before it is sent: the answer can name it and the send can follow the answer. Sends go out in
 * nonce order, back to back, without waiting for each other's receipts. Every nonce signed is then
 * followed until it is mined (./SettlementFollow.ts). The counter starts from the node's pending count,
 * so a restarted service numbers after whatever the one before it sent and left unconfirmed.
 *
 * A settlement's first send is on its answer's path: it goes by `sendNow` (`ChainRpc.readNow`, a frame on
 * an idle websocket to the node), not through the wallet's batched HTTP transport, whose wait for
 * company and fetch cost a paid call milliseconds. Resends and fills are off the path and stay there.
 */
import { type Hex, keccak256, type PrivateKeyAccount, publicActions, type TransactionReceipt } from "viem"
import type { ChainWallet } from "../ChainRpc.js"
import { settlementFollower } from "./SettlementFollow.js"
import type { Draft, Fees, SenderOptions, SentSettlement } from "./SettlementNonce.js"
import type { SettlementCall } from "./Transfer.js"

// A `transferWithAuthorization` costs about 60k gas (a smart wallet's ERC-1271 check more); a fixed
// limit saves an `eth_estimateGas` on every paid call, and only the gas used is paid for.
const SETTLEMENT_GAS = 200_000n
// How old the fees a settlement is priced with may be before a refresh is asked for.
const FEES_TTL_MS = 250

export const settlementSender = (
  wallet: ChainWallet,
  account: PrivateKeyAccount,
  options: SenderOptions,
  // `eth_sendRawTransaction` of a signed transaction; fails when the node did not answer that it took it.
  sendNow: (raw: Hex) => Promise<unknown>
) => {
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

  /**
   * `call` signed ahead with the nonce and fees the next settlement would get now, taking neither: a
   * draft `sign` uses when they are still the ones it takes (one payer calling back to back), so the
   * answer does not wait for the signature. Signing is the costliest CPU step of a settlement (about 1 ms);
   * a draft is only memory, never sent, and one that no longer matches is signed again.
   */
  const prepare = async (call: SettlementCall): Promise<Draft | undefined> => {
    if (nextNonce === undefined || fees === undefined) return undefined
    const [nonce, given] = await Promise.all([nextNonce, fees.value])
    const raw = await signed(call, nonce, given)
    return { call, nonce, fees: given, raw, hash: keccak256(raw) }
  }
  const fits = (draft: Draft | undefined, call: SettlementCall, nonce: number, given: Fees): draft is Draft =>
    draft !== undefined && draft.nonce === nonce && draft.fees === given && draft.call.to === call.to &&
    draft.call.data === call.data

  /**
   * Numbers and signs `call` without sending it: its hash is the one the node will give it. A `draft`
   * (`prepare`) made for the nonce and fees taken here stands for the signature.
   */
  const sign = async (call: SettlementCall, draft?: Draft): Promise<SentSettlement> => {
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
      if (fits(draft, call, nonce, given)) {
        return { call, nonce, hashes: [draft.hash], fees: given, raw: draft.raw, sentAt: undefined, previous, tried }
      }
      const raw = await signed(call, nonce, given)
      return { call, nonce, hashes: [keccak256(raw)], fees: given, raw, sentAt: undefined, previous, tried }
    } catch (error) {
      tried()
      throw error
    }
  }

  /**
   * Hands the signed settlement to the node, after the one numbered before it: true once the node has
   * it. A send that failed may still have reached the node (its answer lost on the way back): the node is
   * asked for the transaction, and a settlement it has counts as taken, since it may land. Another
   * sender on this key may have taken nonces: the counter then moves past them (never back, which would
   * reuse a nonce signed here and not yet mined).
   */
  const submit = async (sent: SentSettlement) => {
    await sent.previous
    try {
      await sendNow(sent.raw)
      sent.sentAt = Date.now()
    } catch {
      const has = await client.getTransaction({ hash: keccak256(sent.raw) }).then(() => true, () => false)
      if (has) {
        sent.sentAt = Date.now()
      } else {
        const known = await pendingCount().catch(() => 0)
        const counter = nextNonce
        if (counter !== undefined) nextNonce = counter.then((next) => Math.max(next, known))
      }
    } finally {
      sent.tried()
    }
    return sent.sentAt !== undefined
  }

  const confirm = settlementFollower({ client, account, signed, currentFees, options })

  return { address: account.address, prepare, sign, submit, confirm }
}

export type SettlementSender = ReturnType<typeof settlementSender>
export type { TransactionReceipt }
export type { Unknown } from "./SettlementFollow.js"
export type { Draft, Fees, SenderOptions, SentSettlement } from "./SettlementNonce.js"

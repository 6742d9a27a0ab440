/**
 * What follows a broadcast settlement once sent (./Broadcast.ts): its receipt awaited (and the nonce
 * sent again or filled, ./SettlementFollow.ts), a failure after the answer was served recorded as the
 * payer's debt, and a settlement whose node stopped answering left with its fate unknown. Following is
 * interruptible: a closing service stops it, and says which settlements it left unconfirmed.
 */
import { Effect } from "effect"
import type { Hex } from "viem"
import type { ExposureBook } from "./ExposureBook.js"
import type { Verified } from "./GateShape.js"
import type { SentSettlement, SettlementSender, Unknown } from "./SettlementSender.js"

export interface BroadcastChain {
  readonly sender: SettlementSender
  /** USDC the payer sent the fee recipient from `sinceBlock` on (what pays a debt). */
  readonly paidSince: (payer: Hex, sinceBlock: bigint) => Promise<bigint>
  readonly headBlock: () => Promise<bigint>
  /** Whether the settlements an earlier run left in the node's pool have been mined (./Inherited.ts). */
  readonly inheritedLanded: () => Promise<boolean>
}

export const followUp = (chain: BroadcastChain, book: ExposureBook) => {
  // A settlement whose answer was served and then failed is the payer's debt, recorded under the last
  // transaction sent for its nonce (a replacement, when the first one was stuck) and naming the first.
  const failed = (verified: Verified, sent: SentSettlement, failure: string) => {
    const transaction = sent.hashes.at(-1) ?? ""
    const reason = sent.hashes.length > 1 ? `${failure}; it replaced ${sent.hashes[0]}` : failure
    return Effect.tryPromise(() => chain.headBlock()).pipe(
      Effect.orElseSucceed(() => 0n),
      Effect.flatMap((sinceBlock) =>
        book.owe({ payer: verified.payer, value: verified.charge.price, transaction, reason, sinceBlock })
      ),
      Effect.zipRight(Effect.logWarning(`served settlement failed: ${transaction} (${reason})`))
    )
  }

  const confirmation = (verified: Verified, sent: SentSettlement, deadlineMs = verified.expiresAtMs) =>
    Effect.tryPromise({
      try: (signal) => chain.sender.confirm(sent, deadlineMs, signal),
      catch: (error): string | Unknown => error instanceof Error ? error.message : String(error)
    }).pipe(
      Effect.flatMap((outcome): Effect.Effect<Hex, string | Unknown> =>
        "silentMs" in outcome
          ? Effect.fail(outcome)
          : outcome.status === "success"
          ? Effect.succeed(outcome.transactionHash)
          : Effect.fail("reverted")
      ),
      // The answer named the first transaction; the one that landed replaced it (same nonce, higher fee).
      Effect.tap((landed) =>
        landed === sent.hashes[0] ? Effect.void : Effect.logInfo(`settlement ${sent.hashes[0]} replaced by ${landed}`)
      ),
      // Once sent, following may stop when the service closes: the nonce is in the node's pool, and a
      // restarted service numbers after it (its counter starts from the node's pending count).
      Effect.interruptible,
      Effect.onInterrupt(() =>
        Effect.logWarning(
          `settlement ${sent.hashes.at(-1)} (nonce ${sent.nonce}) left unconfirmed as the service closed: ` +
            "not followed any more"
        )
      )
    )

  // The node stopped answering past the authorization's end: the settlement may have landed or not, so
  // it is no debt; the authorization stays spent (./AuthorizationLedger.ts), and the operator is told.
  const unknownFate = (sent: SentSettlement, unknown: Unknown) => {
    const newest = sent.hashes.at(-1)
    return Effect.logWarning(
      `settlement ${newest} (nonce ${sent.nonce}) left unconfirmed, fate unknown: past its authorization's ` +
        `end the node did not answer for ${unknown.silentMs} ms; not followed any more`
    )
  }
  const failure = (reason: string | Unknown) =>
    typeof reason === "string" ? reason : "the node stopped answering: whether it landed is unknown"

  /** A served settlement followed to its end: confirmed, a debt, or of unknown fate. */
  const followed = (verified: Verified, sent: SentSettlement) =>
    confirmation(verified, sent).pipe(
      Effect.catchAll((reason) =>
        typeof reason === "string" ? failed(verified, sent, reason) : unknownFate(sent, reason)
      )
    )

  /** A settlement the node refused, not served: its nonce used up by an empty transaction. */
  const filled = (verified: Verified, sent: SentSettlement) =>
    confirmation(verified, sent, 0).pipe(
      Effect.catchAll((reason) => typeof reason === "string" ? Effect.void : unknownFate(sent, reason))
    )

  return { confirmation, followed, filled, failure }
}

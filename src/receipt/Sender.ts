/**
 * Spec rule 6: `receipt` reads only transactions sent directly by the taker. A wallet with code (a
 * multisig, an account-abstraction wallet, an EIP-7702 delegation `0xef0100‖address`) sends through
 * other contracts, so the router's fills would not be the taker's own; it gets `invalid_request`, and
 * so does a listed hash some other account sent (a payment settlement, a relayer's bundle).
 */
import { getAddress } from "viem"
import { InvalidRequest, Issue } from "../../schema/Errors.js"
import type { ChainView } from "./ChainRead.js"

const DELEGATION_PREFIX = "0xef0100"

const codeKind = (code: string) =>
  code.toLowerCase().startsWith(DELEGATION_PREFIX) && code.length === 2 + 46
    ? `an EIP-7702 delegation to ${getAddress(`0x${code.slice(8)}`)}`
    : "contract code"

/** The refusal for `view`, if any: one `details` item naming the offending `txHashes` index. */
export const senderRefusal = (view: ChainView, taker: string): InvalidRequest | undefined => {
  const known = view.listed.findIndex((listed) => listed.transaction !== null)
  if (view.takerCode !== "0x" && view.takerCode !== "0x0") {
    const kind = codeKind(view.takerCode)
    return new InvalidRequest({
      message: `the taker ${getAddress(taker)} has ${kind}: receipt reads only transactions sent directly by an ` +
        "externally owned account",
      hint: "smart-contract and delegated wallets are not supported; check the swap's outcome on chain",
      details: [
        new Issue({
          expected: "a transaction sent by a taker without code",
          code: "taker_has_code",
          path: ["txHashes", Math.max(known, 0)],
          message: `the taker has ${kind}`
        })
      ]
    })
  }
  const index = view.listed.findIndex((listed) =>
    listed.transaction !== null && listed.transaction.from.toLowerCase() !== taker.toLowerCase()
  )
  if (index === -1) return undefined
  const from = getAddress(view.listed[index]!.transaction!.from)
  return new InvalidRequest({
    message: `txHashes[${index}] was sent by ${from}, not by the taker ${getAddress(taker)}`,
    hint: "list only the swap and approval transactions the taker's wallet sent itself",
    details: [
      new Issue({
        expected: `a transaction sent by the taker ${getAddress(taker)}`,
        code: "not_sent_by_taker",
        path: ["txHashes", index],
        message: `sent by ${from}`
      })
    ]
  })
}

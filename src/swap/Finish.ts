/** The last step of `swap`: what a successful build leaves on its quote (./Swap.ts). */
import { Effect } from "effect"
import { QuoteStore } from "../../layers/QuoteStore.js"
import { type Address, lowerAddress, lowerHex } from "../../schema/Chain.js"
import { type PermitRound, planHashesAfter, type QuoteRecord } from "../../schema/QuoteRecord.js"
import type { PermitSingle } from "../execution/RouterPlan.js"
import type { Built } from "./Build.js"
import { issuedPermit, storedPermit } from "./PermitRound.js"

type Finish =
  | { readonly _tag: "PaidElsewhere" }
  | { readonly _tag: "Finished"; readonly permit: PermitSingle | undefined }

/** A round the taker may already be signing: kept rather than replaced when it asks for the same. */
const sameRound = (round: PermitRound | null, taker: Address, recipient: Address, permit: PermitSingle) =>
  round !== null && round.state === "open" && round.taker === taker && round.recipient === recipient &&
  round.permit.nonce === permit.details.nonce && round.permit.amount === permit.details.amount

/**
 * Records a built swap on its quote in one atomic update: the paid flag, and either the swap for
 * `receipt` or the permit round for `swap/tx` (an open round for the same permit is kept).
 */
export const finish = (
  record: QuoteRecord,
  built: Built,
  parties: { readonly taker: Address; readonly recipient: Address },
  charged: bigint,
  nowMs: number
) =>
  Effect.flatMap(
    QuoteStore,
    (store) =>
      store.update(record.quoteId, ({ record: current }): readonly [Finish, QuoteRecord | undefined] => {
        if (charged > 0n && current.attempts.swapPaid) return [{ _tag: "PaidElsewhere" }, undefined]
        const attempts = { ...current.attempts, swapPaid: current.attempts.swapPaid || charged > 0n }
        if (built.permit === undefined) {
          return [{ _tag: "Finished", permit: undefined }, {
            ...current,
            attempts,
            permitRound: null,
            swap: {
              builtAtMs: nowMs,
              block: built.block,
              ...parties,
              minAmountOut: built.minAmountOut,
              amountOutSimulated: built.amountOutSimulated,
              planHashes: planHashesAfter(current.swap, parties, built.planHash)
            }
          }]
        }
        const open = current.permitRound
        if (
          sameRound(open, parties.taker, parties.recipient, built.permit) &&
          open!.permit.sigDeadline > BigInt(Math.floor(nowMs / 1000) + 60)
        ) {
          return [{ _tag: "Finished", permit: issuedPermit(open!.permit) }, { ...current, attempts }]
        }
        const round: PermitRound = {
          ...parties,
          permit: storedPermit(built.permit),
          // Calldata viem encoded and the token the approval goes to, kept lower-case as the record's hex.
          executeData: lowerHex(built.executeData),
          approvals: built.approvals.map((tx) => ({ to: lowerAddress(tx.to), data: lowerHex(tx.data), gas: tx.gas })),
          swapGas: built.swap.gas,
          amountOutSimulated: built.amountOutSimulated,
          failures: 0,
          state: "open"
        }
        return [{ _tag: "Finished", permit: built.permit }, { ...current, attempts, permitRound: round }]
      })
  )

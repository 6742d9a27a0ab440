/**
 * The in-process verify of `broadcast` mode for the common payer, a plain key (EOA) signing an
 * EIP-3009 authorization. One chain read decides it (`ChainRpc.readNow`, ./Coverage.ts), where the
 * library asks three things one after the other: the payer's and the asset's code (no payer code: USDC
 * checks the signature by ECDSA recovery to `from`; no asset code: nothing to simulate against) and
 * `transferWithAuthorization` simulated at the head. The simulation is the signature check: USDC
 * refuses the transfer unless `from` signed exactly this authorization (contracts/token/SignedApprovals.sol,
 * as Circle's v2.2), so a success there proves the signature by the rule the settlement itself will
 * meet, and recovering it here too would only hold the thread that serves the answer for milliseconds.
 * The same simulation, through Multicall3, first reads the codes, which of the payer's unconfirmed
 * calls have landed and its balance, so the payer is admitted only while that balance covers them all
 * plus this one (`insufficient_funds` otherwise). Everything else (a smart wallet, an ERC-6492 wrapper, a failed simulation, a node error)
 * is handed to the library's verify, followed by the coverage read on its own when the payer has calls
 * unconfirmed, so every refusal keeps its reason and every node failure its answer.
 */
import { type Context, Effect, Either, Schema } from "effect"
import { getAddress, type Hex, parseErc6492Signature } from "viem"
import type { PaymentPayload, PaymentRequirements } from "../../schema/Payment.js"
import type { ChainRpc } from "../ChainRpc.js"
import { type Coverage, coverageCall, coverageOf, coverageParams, covers } from "./Coverage.js"
import type { Unconfirmed } from "./ExposureBook.js"
import { type Facilitator, FacilitatorUnavailable } from "./Facilitator.js"
import { Reason } from "./Reasons.js"
import { checkedHex, transferCall } from "./Transfer.js"

// The library refuses an authorization ending within 6 s; the gate's own window is checked before.
const LIBRARY_MIN_VALIDITY_SEC = 6

const plainSignature = (payment: PaymentPayload) => {
  const signature = checkedHex(payment.payload.signature)
  return signature.length === 132 && parseErc6492Signature(signature).address === undefined
}

const Bytes = Schema.String

/** Verifies a payment, and that the payer can pay it beside its calls not yet confirmed (`pending`). */
export type CoveredVerify = (
  payment: PaymentPayload,
  requirements: PaymentRequirements,
  pending: ReadonlyArray<Unconfirmed>
) => ReturnType<Facilitator["verify"]>

const uncovered = (payer: Hex, pending: ReadonlyArray<Unconfirmed>, coverage: Coverage, value: bigint) => ({
  isValid: false,
  payer,
  invalidReason: Reason.insufficientFunds,
  invalidMessage: `the payer's ${coverage.balance} USDC base units do not cover this call (${value}) and the ` +
    `${coverage.owed} its ${pending.length} unconfirmed calls still take: wait for them to land, or add funds`
})

export const quickVerify = (rpc: Context.Tag.Service<ChainRpc>, library: Facilitator): CoveredVerify => {
  const coverage = (
    asset: Hex,
    payer: Hex,
    pending: ReadonlyArray<Unconfirmed>,
    transfer?: ReturnType<typeof transferCall>
  ) => {
    const call = coverageCall(asset, payer, pending, transfer)
    return Effect.map(
      rpc.readNow(Bytes, "eth_call", coverageParams(call)),
      (answer) => coverageOf(checkedHex(answer), pending)
    )
  }

  // The library's verify, then (a payer with calls unconfirmed) the coverage read on its own.
  const libraryCovered: CoveredVerify = (payment, requirements, pending) =>
    Effect.flatMap(library.verify(payment, requirements), (verdict) => {
      if (!verdict.isValid || pending.length === 0) return Effect.succeed(verdict)
      const payer = getAddress(payment.payload.authorization.from)
      return coverage(getAddress(requirements.asset), payer, pending).pipe(
        Effect.mapError((error) =>
          new FacilitatorUnavailable({ message: `reading the payer's balance: ${error.message}` })
        ),
        Effect.map((read) =>
          covers(read, BigInt(payment.payload.authorization.value))
            ? verdict
            : uncovered(payer, pending, read, BigInt(payment.payload.authorization.value))
        )
      )
    })

  const quick: CoveredVerify = (payment, requirements, pending) => {
    const fallback = libraryCovered(payment, requirements, pending)
    const from = getAddress(payment.payload.authorization.from)
    const nowSec = Math.floor(Date.now() / 1000)
    if (BigInt(payment.payload.authorization.validBefore) < BigInt(nowSec + LIBRARY_MIN_VALIDITY_SEC)) return fallback
    if (!plainSignature(payment)) return fallback
    const asset = getAddress(requirements.asset)
    const value = BigInt(payment.payload.authorization.value)
    return coverage(asset, from, pending, transferCall(requirements, payment)).pipe(
      Effect.either,
      Effect.withSpan("PaymentVerify.reads"),
      Effect.flatMap((read) =>
        Either.isRight(read) && !read.right.payerHasCode && read.right.assetHasCode
          ? Effect.succeed(
            covers(read.right, value)
              ? { isValid: true, payer: from }
              : uncovered(from, pending, read.right, value)
          )
          : fallback
      )
    )
  }
  // A field the library would refuse with its own reason (an address that does not parse) is its to answer.
  return (payment, requirements, pending) =>
    Effect.suspend(() => quick(payment, requirements, pending)).pipe(
      Effect.catchAllDefect(() => libraryCovered(payment, requirements, pending))
    )
}

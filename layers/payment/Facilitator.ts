/**
 * Who verifies and settles payments: the x402 facilitator, in-process (the library's facilitator and
 * exact EVM scheme with the settlement key) or remote (an HTTP facilitator at a configured URL). Both
 * answer the same three ways: a verdict, "the facilitator failed" (502, retry later) or "the payment
 * library broke" (500). A remote client is only ever built with an explicit URL, because the library
 * silently talks to a public facilitator when it is given none.
 */
import { type PendingSettlementStore, x402Facilitator } from "@x402/core/facilitator"
import { HTTPFacilitatorClient } from "@x402/core/server"
import {
  type PaymentPayload as LibraryPayload,
  SettleError,
  type SettleResponse,
  VerifyError,
  type VerifyResponse
} from "@x402/core/types"
import { ExactEvmScheme } from "@x402/evm/exact/facilitator"
import { Effect, Schema } from "effect"
import type { PaymentPayload, PaymentRequirements } from "../../schema/Payment.js"
import { PaymentConfigError } from "./PaymentConfig.js"
import type { settlementSigner } from "./SettlementSigner.js"

/** The facilitator could not be reached or gave no usable answer (502 `payment_unavailable`). */
export class FacilitatorUnavailable extends Schema.TaggedError<FacilitatorUnavailable>()("FacilitatorUnavailable", {
  message: Schema.String
}) {}

/** The payment library itself failed (500, nothing settled). */
export class PaymentLibraryFailure extends Schema.TaggedError<PaymentLibraryFailure>()("PaymentLibraryFailure", {
  message: Schema.String
}) {}

export type FacilitatorFailure = FacilitatorUnavailable | PaymentLibraryFailure

export interface Facilitator {
  readonly kind: "in-process" | "remote"
  /** The scheme and network pairs it settles (x402 `/supported`), as `exact eip155:5042`. */
  readonly supported: Effect.Effect<ReadonlyArray<string>, FacilitatorUnavailable>
  readonly verify: (
    payment: PaymentPayload,
    requirements: PaymentRequirements
  ) => Effect.Effect<VerifyResponse, FacilitatorFailure>
  readonly settle: (
    payment: PaymentPayload,
    requirements: PaymentRequirements
  ) => Effect.Effect<SettleResponse, FacilitatorFailure>
}

const kindName = (kind: { readonly x402Version: number; readonly scheme: string; readonly network: string }) =>
  `${kind.scheme} ${kind.network}${kind.x402Version === 2 ? "" : ` (x402 v${kind.x402Version})`}`

/**
 * `facilitator` once it says it settles `exact` on `network` with x402 v2; a facilitator that does not
 * (or does not answer) would refuse every payment, so the service refuses to start with it.
 */
export const servingFacilitator = (facilitator: Facilitator, network: PaymentRequirements["network"]) =>
  Effect.flatMap(
    Effect.mapError(facilitator.supported, (error) =>
      new PaymentConfigError({ message: `the x402 facilitator did not say what it supports: ${error.message}` })),
    (kinds) =>
      kinds.includes(`exact ${network}`) ? Effect.succeed(facilitator) : Effect.fail(
        new PaymentConfigError({
          message: `the x402 facilitator does not settle scheme exact on ${network} (x402 v2); it supports: ${
            kinds.length === 0 ? "nothing" : kinds.join(", ")
          }`
        })
      )
  )

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""

// The library's types are mutable views of the same JSON: the named boundary where ours become its.
const library = (payment: PaymentPayload, requirements: PaymentRequirements) =>
  // eslint-disable-next-line no-restricted-syntax -- the boundary to the x402 library's own types
  [payment as unknown as LibraryPayload, requirements as unknown as LibraryPayload["accepted"]] as const

/**
 * In-process: the library's facilitator with the exact EVM scheme on `network`, one for the process,
 * with the ledger's pending-settlement store, so a settlement resent after it was reported pending
 * reconciles with the transaction already sent. An invalid verdict reached while the node was failing
 * is the node's failure, not the payer's.
 */
export const inProcessFacilitator = (
  signer: ReturnType<typeof settlementSigner>,
  network: PaymentRequirements["network"],
  settlements: PendingSettlementStore
): Facilitator => {
  const facilitator = new x402Facilitator().register(
    network,
    new ExactEvmScheme(signer.signer, { pendingSettlementStore: settlements })
  )
  const run = <A extends VerifyResponse | SettleResponse>(
    action: "verify" | "settle",
    call: (facilitator: x402Facilitator) => Promise<A>
  ) =>
    Effect.suspend(() => {
      const { answer, probe } = signer.probed(() => call(facilitator))
      return Effect.tryPromise({
        try: () => answer,
        catch: (error) =>
          probe.transportFailure === undefined
            ? new PaymentLibraryFailure({ message: `x402 ${action} failed: ${firstLine(error)}` })
            : new FacilitatorUnavailable({ message: `chain RPC failed during x402 ${action}` })
      }).pipe(
        Effect.filterOrFail(
          (answer) => probe.transportFailure === undefined || ("isValid" in answer ? answer.isValid : answer.success),
          () => new FacilitatorUnavailable({ message: `chain RPC failed during x402 ${action}` })
        )
      )
    })
  return {
    kind: "in-process",
    supported: Effect.sync(() => facilitator.getSupported().kinds.map(kindName)),
    verify: (payment, requirements) =>
      run("verify", (facilitator) => facilitator.verify(...library(payment, requirements))),
    settle: (payment, requirements) =>
      run("settle", (facilitator) => facilitator.settle(...library(payment, requirements)))
  }
}

/** The payer a refusal names, when it names one. */
const payerOf = (refusal: { readonly payer?: string | undefined }) =>
  refusal.payer === undefined ? {} : { payer: refusal.payer }

/**
 * Remote: an HTTP facilitator at `url`. A refusal it sends with an error status is still a verdict;
 * anything else that goes wrong (no answer, a timeout, a malformed answer) is the facilitator failing.
 */
export const remoteFacilitator = (url: string, timeoutMs: number): Facilitator => {
  if (url.trim() === "") throw new Error("a remote facilitator needs an explicit URL")
  const client = new HTTPFacilitatorClient({ url, timeoutMs })
  const unavailable = (action: string) => (error: unknown) =>
    new FacilitatorUnavailable({ message: `x402 facilitator ${action} failed: ${firstLine(error)}` })
  /** The facilitator's answer to `action`; the library throws `Refusal` for a refusal, whose verdict it carries. */
  const answer = <A, R>(
    action: string,
    call: () => Promise<A>,
    Refusal: new(...args: never) => R,
    verdict: (refusal: R) => A
  ) =>
    Effect.tryPromise({
      try: () =>
        call().catch((error: unknown) => {
          if (error instanceof Refusal) return verdict(error)
          throw error
        }),
      catch: unavailable(action)
    })
  return {
    kind: "remote",
    supported: Effect.tryPromise({
      try: async () => (await client.getSupported()).kinds.map(kindName),
      catch: unavailable("/supported")
    }),
    verify: (payment, requirements) =>
      answer("verify", () => client.verify(...library(payment, requirements)), VerifyError, (error) => ({
        isValid: false,
        invalidReason: error.invalidReason ?? "verification_failed",
        ...payerOf(error)
      })),
    settle: (payment, requirements) =>
      answer("settle", () => client.settle(...library(payment, requirements)), SettleError, (error) => ({
        success: false,
        errorReason: error.errorReason ?? "settlement_failed",
        transaction: error.transaction,
        network: error.network,
        ...payerOf(error)
      }))
  }
}

/**
 * A payment as the payer sent it, decoded and checked against the offer before any facilitator is
 * asked: the cheap, local refusals (malformed, another amount, asset, network or recipient, above the
 * single-payment ceiling, about to expire) cost no RPC call and never reach the operation.
 */
import { Either, ParseResult, Schema } from "effect"
import { isAddress, isAddressEqual } from "viem"
import { PaymentPayload, type PaymentRequirements } from "../../schema/Payment.js"
import { Reason } from "./Reasons.js"
import type { PaymentTerms } from "./Requirements.js"

/** How a payment arrived: the base64 `PAYMENT-SIGNATURE` header (HTTP) or a JSON object (MCP `_meta`). */
export type SubmittedPayment =
  | { readonly _tag: "Header"; readonly value: string }
  | { readonly _tag: "Json"; readonly value: unknown }

export const SubmittedPayment = {
  header: (value: string): SubmittedPayment => ({ _tag: "Header", value }),
  json: (value: unknown): SubmittedPayment => ({ _tag: "Json", value })
}

/** A refusal reason (x402 `error` string, ./Reasons.ts) and a sentence for logs and humans. */
export interface Refusal {
  readonly reason: string
  readonly message: string
}

const refusal = (reason: string, message: string): Refusal => ({ reason, message })

const decodeJson = Schema.decodeUnknownEither(PaymentPayload, { onExcessProperty: "ignore" })
const decodeHeader = Schema.decodeUnknownEither(Schema.parseJson(PaymentPayload), { onExcessProperty: "ignore" })

export const decodePayment = (submitted: SubmittedPayment): Either.Either<PaymentPayload, Refusal> => {
  const decoded = submitted._tag === "Json"
    ? decodeJson(submitted.value)
    : decodeHeader(Buffer.from(submitted.value.trim(), "base64").toString("utf8"))
  return Either.mapLeft(decoded, (error) =>
    refusal(
      Reason.invalidPayload,
      `not an x402 v2 exact EIP-3009 payment: ${ParseResult.TreeFormatter.formatErrorSync(error).split("\n")[0]}`
    ))
}

const sameAddress = (a: string, b: string) =>
  isAddress(a, { strict: false }) && isAddress(b, { strict: false }) && isAddressEqual(a, b)

const sameExtra = (accepted: PaymentRequirements["extra"], offered: PaymentRequirements["extra"]) =>
  Object.keys(offered).every((key) => accepted[key] === offered[key])

/**
 * Checks a decoded payment against the requirements this call offers. The facilitator is always given
 * the service's own requirements, never the payer's echo, so these checks decide which refusal the
 * payer reads; the signature itself is the facilitator's to check.
 */
export const checkPayment = (
  terms: PaymentTerms,
  offered: PaymentRequirements,
  payment: PaymentPayload
): Either.Either<void, Refusal> => {
  const { accepted } = payment
  const authorization = payment.payload.authorization
  const value = BigInt(authorization.value)
  if (value > terms.ceiling) {
    return Either.left(refusal(Reason.valueMismatch, `a single payment is at most ${terms.ceiling} USDC base units`))
  }
  if (accepted.scheme !== offered.scheme) return Either.left(refusal(Reason.invalidScheme, "only `exact` is accepted"))
  if (accepted.network !== offered.network) {
    return Either.left(refusal(Reason.invalidNetwork, `payments are made on ${offered.network}`))
  }
  if (!sameAddress(accepted.asset, offered.asset)) {
    return Either.left(refusal(Reason.invalidRequirements, `payments are made in USDC at ${offered.asset}`))
  }
  if (accepted.amount !== offered.amount || value !== BigInt(offered.amount)) {
    return Either.left(refusal(Reason.valueMismatch, `this call costs ${offered.amount} USDC base units`))
  }
  if (!sameAddress(accepted.payTo, offered.payTo) || !sameAddress(authorization.to, offered.payTo)) {
    return Either.left(refusal(Reason.recipientMismatch, `payments go to ${offered.payTo}`))
  }
  if (accepted.maxTimeoutSeconds !== offered.maxTimeoutSeconds || !sameExtra(accepted.extra, offered.extra)) {
    return Either.left(
      refusal(Reason.invalidRequirements, "the accepted requirements differ from this call's offer")
    )
  }
  return Either.void
}

/** Whether the authorization is valid at `nowSec` and stays valid long enough to be settled. */
export const checkValidity = (
  terms: PaymentTerms,
  payment: PaymentPayload,
  nowSec: number
): Either.Either<void, Refusal> => {
  const authorization = payment.payload.authorization
  if (BigInt(authorization.validAfter) > BigInt(nowSec)) {
    return Either.left(refusal(Reason.notYetValid, "the authorization's validAfter is in the future"))
  }
  if (BigInt(authorization.validBefore) < BigInt(nowSec + terms.minValiditySec)) {
    return Either.left(
      refusal(
        Reason.expiring,
        `the authorization must stay valid at least ${terms.minValiditySec} s more to be settled`
      )
    )
  }
  return Either.void
}

/**
 * The key an authorization is locked under: one EIP-3009 nonce of one payer on one token of one chain
 * can move funds once, so it may pay for one call.
 */
export const authorizationKey = (payment: PaymentPayload, offered: PaymentRequirements): string =>
  [
    offered.network,
    offered.asset.toLowerCase(),
    payment.payload.authorization.from.toLowerCase(),
    payment.payload.authorization.nonce.toLowerCase()
  ].join("/")

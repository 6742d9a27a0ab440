/**
 * The offer of a paid operation, built the same way every time: payers echo the requirements they
 * accepted and the echo is compared field by field, so any variation (address case, key order of
 * `extra`, a number as a string) would turn a correct payment into a mismatch.
 */
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http"
import { getAddress } from "viem"
import type { PaymentRequired, PaymentRequirements, ResourceInfo, SettlementReceipt } from "../../schema/Payment.js"

/** What every offer of this service has in common. */
export interface PaymentTerms {
  readonly network: `${string}:${string}`
  /** USDC's ERC-20 address (EIP-3009). */
  readonly asset: `0x${string}`
  readonly payTo: `0x${string}`
  readonly eip712: { readonly name: string; readonly version: string }
  readonly ceiling: bigint
  readonly defaultTimeoutSec: number
  readonly minValiditySec: number
}

/** What one call costs, known before it runs. */
export interface Charge {
  /** USDC base units (6 decimals); 0 means the call is free. */
  readonly price: bigint
  readonly resource: ResourceInfo
  /**
   * How long a signed authorization stays valid: long enough for the payer to send it, the operation to
   * run and the settlement to be mined. Defaults to `PAYMENT_TIMEOUT_SEC`.
   */
  readonly maxTimeoutSeconds?: number
  /** x402 extensions the offer advertises (the `bazaar` discovery extension), by identifier. */
  readonly extensions?: Readonly<Record<string, unknown>>
  /**
   * The operation only reads: it may start while the payment is verified. Its answer is withheld, and
   * nothing is charged, unless the payment verifies; a verification that fails interrupts it.
   */
  readonly readOnly?: boolean
}

/** The terms with their addresses checksummed, as every offer spells them; done once per gate. */
export const canonicalTerms = (terms: PaymentTerms): PaymentTerms => ({
  ...terms,
  asset: getAddress(terms.asset),
  payTo: getAddress(terms.payTo)
})

/** The requirements of one call; `terms` as `canonicalTerms` returns them. */
export const requirementsFor = (terms: PaymentTerms, charge: Charge): PaymentRequirements => ({
  scheme: "exact",
  network: terms.network,
  asset: terms.asset,
  amount: charge.price.toString(),
  payTo: terms.payTo,
  maxTimeoutSeconds: charge.maxTimeoutSeconds ?? terms.defaultTimeoutSec,
  extra: { name: terms.eip712.name, version: terms.eip712.version }
})

/** Every answer of this service is JSON. */
const MIME_TYPE = "application/json"

/**
 * The `PAYMENT-REQUIRED` body, the one place an offer is built; `error` says why payment is asked for
 * (none sent, or why the one sent was refused).
 */
export const offerFor = (terms: PaymentTerms, charge: Charge, error?: string): PaymentRequired => ({
  x402Version: 2,
  ...(error === undefined ? {} : { error }),
  resource: { ...charge.resource, mimeType: charge.resource.mimeType ?? MIME_TYPE },
  accepts: [requirementsFor(terms, charge)],
  ...(charge.extensions === undefined ? {} : { extensions: charge.extensions })
})

/** Base64 JSON, as the `PAYMENT-REQUIRED` header carries it. */
export const encodeOffer = (offer: PaymentRequired): string =>
  encodePaymentRequiredHeader({ ...offer, accepts: [...offer.accepts] })

/** Base64 JSON, as the `PAYMENT-RESPONSE` header carries a settlement receipt. */
export const encodeReceipt = (settlement: SettlementReceipt): string => encodePaymentResponseHeader(settlement)

/** The unpaid offer's `error`, as the x402 reference server words it. */
export const PAYMENT_REQUIRED = "Payment required"

// Distinct offers a gate keeps; past this many (prices computed from requests vary) it starts again.
const OFFERS_KEPT = 256

/**
 * The offers of one gate, each built and its header encoded once: every unpaid call of an operation
 * gets the same offer, and encoding it (JSON, then base64 byte by byte in the x402 library) would
 * otherwise be most of a 402's cost. `terms` as `canonicalTerms` returns them.
 */
export const offerBook = (terms: PaymentTerms) => {
  const offers = new Map<string, PaymentRequired>()
  const headers = new WeakMap<PaymentRequired, string>()
  return {
    offer: (charge: Charge, error?: string): PaymentRequired => {
      // The resource names the operation and its transport, and so the discovery `extensions` it carries.
      const key = JSON.stringify([charge.price.toString(), charge.resource, charge.maxTimeoutSeconds, error])
      const known = offers.get(key)
      if (known !== undefined) return known
      if (offers.size >= OFFERS_KEPT) offers.clear()
      const built = offerFor(terms, charge, error)
      offers.set(key, built)
      return built
    },
    encodeOffer: (offer: PaymentRequired): string => {
      const known = headers.get(offer)
      if (known !== undefined) return known
      const header = encodeOffer(offer)
      headers.set(offer, header)
      return header
    }
  }
}

/**
 * One call to the service over HTTP, paying when asked with the official x402 client packages
 * (`@x402/core` for the protocol, `@x402/evm`'s `exact` scheme to sign the EIP-3009 authorization), under
 * the client's budget: the offer in `PAYMENT-REQUIRED` is read, its amount counted against the budget
 * (refused before anything is signed when beyond it), the payment signed and the call sent again. What
 * a call paid is the amount of the payment it signed when the answer names a successful settlement (the
 * `exact` scheme moves exactly that), nothing otherwise.
 */
import { x402Client } from "@x402/core/client"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import type { LocalAccount } from "viem"
import type { Budget } from "./Budget.js"

export interface Answer {
  readonly status: number
  readonly body: unknown
  /** USDC base units this call paid; 0 for a free or unsettled call. */
  readonly paid: bigint
  /** The settlement transaction named by `PAYMENT-RESPONSE`, when the call was paid. */
  readonly settlement: string | undefined
}

export interface PayingHttpOptions {
  readonly baseUrl: string
  /** Signs the x402 payments. */
  readonly payer: LocalAccount
  readonly budget: Budget
  /** The most one payment may be, in USDC base units (the x402 client's own spend control too). */
  readonly perCall: bigint
  /** The chain's USDC (the asset the service asks for), allowed explicitly as the x402 client wants. */
  readonly usdc: string
  readonly network: `${string}:${string}`
  readonly fetch?: typeof fetch
}

export const payingHttp = (options: PayingHttpOptions) => {
  const request = options.fetch ?? fetch
  const signer = x402Client.fromConfig({
    schemes: [{ network: options.network, client: new ExactEvmScheme(options.payer) }],
    spendControls: {
      allowedAssets: [{ network: options.network, asset: options.usdc, maxAmountPerPayment: `${options.perCall}` }]
    }
  })
  const read = async (response: Response, paid: bigint, settlement?: string): Promise<Answer> => ({
    status: response.status,
    body: await response.json(),
    paid,
    settlement
  })

  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> => {
    const send = (headers: Record<string, string>) =>
      request(`${options.baseUrl}${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const first = await send({})
    const offered = first.headers.get("payment-required")
    if (first.status !== 402 || offered === null) return read(first, 0n)
    await first.arrayBuffer()
    const offer = decodePaymentRequiredHeader(offered)
    const terms = offer.accepts.find((entry) => entry.network === options.network)
    if (terms === undefined) throw new Error(`the service asks for payment on ${offer.accepts[0]?.network} only`)
    const amount = BigInt(terms.amount)
    options.budget.take(amount)
    let settled: string | undefined
    try {
      const payload = await signer.createPaymentPayload({ ...offer, accepts: [terms] })
      const paid = await send({ "payment-signature": encodePaymentSignatureHeader(payload) })
      const receipt = paid.headers.get("payment-response")
      const settlement = receipt === null ? undefined : decodePaymentResponseHeader(receipt)
      if (settlement?.success === true) settled = settlement.transaction
      return await read(paid, settled === undefined ? 0n : amount, settled)
    } finally {
      if (settled === undefined) options.budget.giveBack(amount)
      else options.budget.charged(amount)
    }
  }
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body: unknown) => call("POST", path, body)
  }
}

export type PayingHttp = ReturnType<typeof payingHttp>

/**
 * Payers written the way users write them: the public `@x402/core` client with the `@x402/evm` exact
 * scheme and a viem account. The chain's USDC is not one of the library's default assets, so every
 * payer allows it explicitly with a per-payment cap, as the spec tells clients to.
 */
import { x402Client } from "@x402/core/client"
import { encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentPayload, PaymentRequired } from "@x402/core/types"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { Layer } from "effect"
import type { PrivateKeyAccount } from "viem"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { PaymentGate } from "../../layers/PaymentGate.js"
import type { Manifest } from "../../schema/Manifest.js"

export const USDC = "0x3600000000000000000000000000000000000000"

/** An x402 client for `account` on `network`, allowing the chain's USDC up to `capBaseUnits` per payment. */
export const payerClient = (account: PrivateKeyAccount, network: `${string}:${string}`, capBaseUnits = "5000000") =>
  x402Client.fromConfig({
    schemes: [{ network, client: new ExactEvmScheme(account) }],
    spendControls: { allowedAssets: [{ network, asset: USDC, maxAmountPerPayment: capBaseUnits }] }
  })

/** Signs the offer and answers the `PAYMENT-SIGNATURE` header value with the payload it encodes. */
export const pay = async (account: PrivateKeyAccount, offer: PaymentRequired) => {
  const network = offer.accepts[0]?.network
  if (network === undefined) throw new Error("the offer accepts nothing")
  const payload = await payerClient(account, network, "100000000").createPaymentPayload(offer)
  return { payload, header: encodePaymentSignatureHeader(payload) }
}

/** Re-encodes a payload after a test tampered with it. */
export const encodePayment = (payload: PaymentPayload) => encodePaymentSignatureHeader(payload)

/**
 * The gate as the service composes it, on the chain of `manifest`, with `settings` over `defaults`
 * (the devnet treasury as fee recipient and settlement key) over the environment.
 */
export const gateLayer = (
  manifest: Manifest,
  settings: Readonly<Record<string, string>>,
  defaults: Readonly<Record<string, string>> = devnetPaymentSettings()
) =>
  PaymentGate.Default.pipe(
    Layer.provide(ChainRpc.Default),
    Layer.provide(Layer.succeed(Deployment, Deployment.make(manifest))),
    Layer.provide(AppConfig.Default),
    Layer.provide(AppConfig.withSettings({ ...defaults, ...settings }))
  )

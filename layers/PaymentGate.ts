/**
 * The x402 v2 payment gate shared by HTTP and MCP: what a paid operation offers, and the flow that
 * verifies a payment, runs the operation and settles only a successful answer. It knows nothing of
 * either transport: adapters turn its values into headers or `_meta` (see `layers/payment/Gate.ts`).
 *
 * Layers: `inProcess` verifies and settles with the library's facilitator and the settlement key on
 * the chain `ChainRpc` reaches (the devnet default); `remote` asks the facilitator at
 * `FACILITATOR_URL`; `Default` picks by configuration. None falls back to a public facilitator: naming
 * neither fails start-up with `PaymentConfigError` (the embedded devnet's entry points name its treasury).
 */
import { Config, Context, Effect, Layer, Redacted } from "effect"
import { privateKeyToAccount } from "viem/accounts"
import { AppConfig } from "./AppConfig.js"
import { ChainRpc } from "./ChainRpc.js"
import { Deployment } from "./Deployment.js"
import { AuthorizationLedger } from "./payment/AuthorizationLedger.js"
import { type Facilitator, inProcessFacilitator, remoteFacilitator } from "./payment/Facilitator.js"
import { makeGate } from "./payment/Gate.js"
import type { PaymentGateShape } from "./payment/GateShape.js"
import { PaymentConfigError, type PaymentSettings, paymentSettings } from "./payment/PaymentConfig.js"
import { redisLedger } from "./payment/RedisLedger.js"
import type { PaymentTerms } from "./payment/Requirements.js"
import { settlementSigner } from "./payment/SettlementSigner.js"

export { PaymentDemanded, PaymentRejected } from "../schema/Payment.js"
export type { GateFailure, Paid, PaymentGateShape, PaymentReceipt, Verified } from "./payment/GateShape.js"
export type { Charge, PaymentTerms } from "./payment/Requirements.js"
export { SubmittedPayment } from "./payment/Submission.js"
export { AuthorizationLedger, PaymentConfigError }

/** The devnet and Arc both keep USDC's ERC-20 face here. */
const USDC = "0x3600000000000000000000000000000000000000"

const termsOf = (settings: PaymentSettings, deployment: Context.Tag.Service<Deployment>): PaymentTerms => ({
  network: `eip155:${deployment.chainId}`,
  asset: deployment.contracts["usdc"] ?? USDC,
  payTo: settings.payTo,
  eip712: settings.eip712,
  ceiling: settings.ceiling,
  defaultTimeoutSec: settings.defaultTimeoutSec,
  minValiditySec: settings.minValiditySec
})

const settings = Effect.flatMap(AppConfig, (config) => paymentSettings(config.profile, config.payment))

const gate = <R>(build: (settings: PaymentSettings) => Effect.Effect<Facilitator, PaymentConfigError, R>) =>
  Effect.gen(function*() {
    const resolved = yield* settings
    const deployment = yield* Deployment
    const ledger = yield* AuthorizationLedger
    const facilitator = yield* build(resolved)
    return makeGate(termsOf(resolved, deployment), facilitator, ledger)
  })

const inProcess = (resolved: PaymentSettings) =>
  Effect.gen(function*() {
    if (resolved.facilitator._tag !== "InProcess") {
      return yield* new PaymentConfigError({
        message: "FACILITATOR_URL is set: the in-process facilitator is not used"
      })
    }
    const rpc = yield* ChainRpc
    const account = privateKeyToAccount(Redacted.value(resolved.facilitator.settlementKey))
    return inProcessFacilitator(
      settlementSigner(rpc.wallet(account), account, {
        receiptPollMs: resolved.receiptPollMs,
        receiptTimeoutMs: resolved.receiptTimeoutMs
      })
    )
  })

const remote = (resolved: PaymentSettings) =>
  resolved.facilitator._tag === "Remote"
    ? Effect.succeed(remoteFacilitator(resolved.facilitator.url, resolved.facilitator.timeoutMs))
    : Effect.fail(new PaymentConfigError({ message: "FACILITATOR_URL is not set: no remote facilitator to use" }))

export class PaymentGate extends Context.Tag("PaymentGate")<PaymentGate, PaymentGateShape>() {
  /** Verifies and settles in this process with `SETTLEMENT_PRIVATE_KEY` (the devnet treasury by default). */
  static readonly inProcess = Layer.effect(PaymentGate, gate(inProcess))

  /** Verifies and settles through the facilitator at `FACILITATOR_URL`. */
  static readonly remote = Layer.effect(PaymentGate, gate(remote))

  /**
   * Where authorizations are locked: this process (`PAYMENT_LEDGER=memory`, the default) or Redis at
   * `REDIS_URL` (`PAYMENT_LEDGER=redis`), shared by replicas.
   */
  static readonly ledger = Layer.unwrapEffect(
    Effect.map(
      Config.all({
        kind: Config.literal("memory", "redis")("PAYMENT_LEDGER").pipe(Config.withDefault("memory" as const)),
        url: Config.string("REDIS_URL").pipe(Config.withDefault("redis://127.0.0.1:6379"))
      }),
      ({ kind, url }) => kind === "redis" ? redisLedger(url) : AuthorizationLedger.memory
    )
  )

  /**
   * `remote` when `FACILITATOR_URL` is set, else `inProcess`, with the configured ledger. Build it
   * once for the whole service: HTTP and MCP must share one ledger for the one-call rule to hold
   * across both.
   */
  static readonly Default = Layer.effect(
    PaymentGate,
    gate((resolved) => resolved.facilitator._tag === "Remote" ? remote(resolved) : inProcess(resolved))
  ).pipe(Layer.provide(PaymentGate.ledger))
}

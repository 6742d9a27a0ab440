/**
 * The x402 v2 payment gate shared by HTTP and MCP: what a paid operation offers, and the flow that
 * verifies a payment, runs the operation and settles only a successful answer. It knows nothing of
 * either transport: adapters turn its values into headers or `_meta` (see `layers/payment/Gate.ts`).
 *
 * Layers: `layerInProcess` verifies and settles with the library's facilitator and the settlement key on
 * the chain `ChainRpc` reaches (the devnet default); `layerRemote` asks the facilitator at
 * `FACILITATOR_URL`; `Default` picks by configuration. None falls back to a public facilitator: naming
 * neither fails start-up with `PaymentConfigError` (the embedded devnet's entry points name its treasury).
 */
import { Context, Effect, Layer, Redacted, Schema, type Scope } from "effect"
import { getAddress, parseAbiItem, publicActions } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { AppConfig } from "./AppConfig.js"
import { ChainRpc } from "./ChainRpc.js"
import { Deployment, usdcOf } from "./Deployment.js"
import { AuthorizationLedger, type AuthorizationLedgerShape } from "./payment/AuthorizationLedger.js"
import { type BroadcastChain, type BroadcastSettlement, broadcastSettlement, type Reject } from "./payment/Broadcast.js"
import { exposureBook } from "./payment/Exposure.js"
import { type Facilitator, inProcessFacilitator, remoteFacilitator, servingFacilitator } from "./payment/Facilitator.js"
import { makeGate } from "./payment/Gate.js"
import type { PaymentGateShape } from "./payment/GateShape.js"
import { inheritedSettlements } from "./payment/Inherited.js"
import { PaymentConfigError, type PaymentSettings, paymentSettings } from "./payment/PaymentConfig.js"
import { quickVerify } from "./payment/QuickVerify.js"
import { redisExposureBook } from "./payment/RedisExposure.js"
import { redisLedger } from "./payment/RedisLedger.js"
import type { PaymentTerms } from "./payment/Requirements.js"
import { settlementSender } from "./payment/SettlementSender.js"
import { settlementSigner } from "./payment/SettlementSigner.js"
import { redisClient } from "./Redis.js"

export { PaymentDemanded, PaymentRejected, SettlementPending } from "../schema/Payment.js"
export type { ExposureSnapshot } from "./payment/ExposureBook.js"
export type { GateFailure, Paid, PaymentGateShape, PaymentReceipt, Verified } from "./payment/GateShape.js"
export type { SettlementMode } from "./payment/PaymentConfig.js"
export type { Charge, PaymentTerms } from "./payment/Requirements.js"
export { SubmittedPayment } from "./payment/Submission.js"
export { AuthorizationLedger, PaymentConfigError }

const termsOf = (settings: PaymentSettings, deployment: Context.Tag.Service<Deployment>): PaymentTerms => ({
  network: `eip155:${deployment.chainId}`,
  asset: usdcOf(deployment),
  payTo: settings.payTo,
  eip712: settings.eip712,
  ceiling: settings.ceiling,
  defaultTimeoutSec: settings.defaultTimeoutSec,
  minValiditySec: settings.minValiditySec
})

const settings = Effect.flatMap(AppConfig, (config) => paymentSettings(config.profile, config.payment))

interface Settling {
  readonly facilitator: Facilitator
  /** Settlement mode `broadcast`: the gate's hook (`confirmed` without it). */
  readonly broadcast?: (reject: Reject) => BroadcastSettlement
}

type Build<R> = (
  settings: PaymentSettings,
  terms: PaymentTerms,
  ledger: AuthorizationLedgerShape
) => Effect.Effect<Settling, PaymentConfigError, R>

const gate = <R>(build: Build<R>) =>
  Effect.gen(function*() {
    const resolved = yield* settings
    const deployment = yield* Deployment
    const ledger = yield* AuthorizationLedger
    const terms = termsOf(resolved, deployment)
    const { broadcast, facilitator } = yield* build(resolved, terms, ledger)
    return makeGate(terms, facilitator, ledger, broadcast)
  })

const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)")

const failedToConnect = (cause: unknown) =>
  new PaymentConfigError({
    message: `the exposure book's Redis did not answer: ${cause instanceof Error ? cause.message : String(cause)}`
  })

const inProcess: Build<AppConfig | ChainRpc | Scope.Scope> = (resolved, terms, ledger) =>
  Effect.gen(function*() {
    if (resolved.facilitator._tag !== "InProcess") {
      return yield* new PaymentConfigError({
        message: "FACILITATOR_URL is set: the in-process facilitator is not used"
      })
    }
    const rpc = yield* ChainRpc
    const account = privateKeyToAccount(Redacted.value(resolved.facilitator.settlementKey))
    const wallet = rpc.wallet(account)
    const facilitator = inProcessFacilitator(
      settlementSigner(wallet, account, {
        receiptPollMs: resolved.receiptPollMs,
        receiptTimeoutMs: resolved.receiptTimeoutMs,
        asset: terms.asset
      }),
      terms.network,
      ledger.settlements
    )
    const { settlement } = resolved
    if (settlement.mode === "confirmed") return { facilitator }
    const scope = yield* Effect.scope
    const client = wallet.extend(publicActions)
    const keyCount = (blockTag: "latest" | "pending") =>
      client.getTransactionCount({ address: account.address, blockTag })
    const chain: BroadcastChain = {
      sender: settlementSender(
        wallet,
        account,
        {
          pollMs: resolved.receiptPollMs,
          replaceAfterMs: settlement.replaceAfterMs,
          giveUpAfterMs: settlement.giveUpAfterMs
        },
        (raw) => Effect.runPromise(rpc.readNow(Schema.String, "eth_sendRawTransaction", [raw]))
      ),
      paidSince: async (payer, sinceBlock) => {
        const logs = await client.getLogs({
          address: getAddress(terms.asset),
          event: transfer,
          args: { from: payer, to: getAddress(terms.payTo) },
          fromBlock: sinceBlock
        })
        return logs.reduce((paid, log) => paid + (log.args.value ?? 0n), 0n)
      },
      headBlock: () => client.getBlockNumber({ cacheTime: 0 }),
      inheritedLanded: inheritedSettlements(
        keyCount,
        yield* Effect.tryPromise(() => keyCount("pending")).pipe(
          Effect.orElseSucceed(() => undefined)
        )
      )
    }
    const { redis } = yield* AppConfig
    const book = redis.url._tag === "Some"
      ? redisExposureBook(yield* redisClient(redis.url.value, failedToConnect), redis.prefix, settlement)
      : exposureBook(settlement)
    const verify = quickVerify(rpc, facilitator)
    return {
      facilitator: { ...facilitator, verify: (payment, requirements) => verify(payment, requirements, []) },
      broadcast: (reject) => broadcastSettlement(chain, book, ledger, verify, reject, scope)
    }
  })

// A facilitator that does not settle this scheme on this network would refuse every payment: the
// service does not start with one.
const remote: Build<never> = (resolved, terms) =>
  resolved.facilitator._tag === "Remote"
    ? Effect.map(
      servingFacilitator(remoteFacilitator(resolved.facilitator.url, resolved.facilitator.timeoutMs), terms.network),
      (facilitator): Settling => ({ facilitator })
    )
    : Effect.fail(new PaymentConfigError({ message: "FACILITATOR_URL is not set: no remote facilitator to use" }))

export class PaymentGate extends Context.Tag("PaymentGate")<PaymentGate, PaymentGateShape>() {
  /** Verifies and settles in this process with `SETTLEMENT_PRIVATE_KEY` (the devnet treasury by default). */
  static readonly layerInProcess = Layer.scoped(PaymentGate, gate(inProcess))

  /** Verifies and settles through the facilitator at `FACILITATOR_URL`. */
  static readonly layerRemote = Layer.effect(PaymentGate, gate(remote))

  /**
   * Where authorizations are locked: this process, or Redis at `REDIS_URL` when it is set (shared by
   * replicas, beside their quotes).
   */
  static readonly layerLedger = Layer.unwrapEffect(
    Effect.map(
      AppConfig,
      ({ redis }) =>
        redis.url._tag === "Some" ? redisLedger(redis.url.value, redis.prefix) : AuthorizationLedger.layerMemory
    )
  )

  /**
   * `layerRemote` when `FACILITATOR_URL` is set, else `layerInProcess`, with the configured ledger. Build it
   * once for the whole service: HTTP and MCP must share one ledger for the one-call rule to hold
   * across both.
   */
  static readonly Default = Layer.scoped(
    PaymentGate,
    gate((resolved, terms, ledger) =>
      resolved.facilitator._tag === "Remote" ? remote(resolved, terms, ledger) : inProcess(resolved, terms, ledger)
    )
  ).pipe(Layer.provide(PaymentGate.layerLedger))
}

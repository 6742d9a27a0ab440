/**
 * Settings of the payment layer, read by `AppConfig` with every other setting and checked here. On
 * every chain a facilitator must be named, by URL or by a settlement key, and a fee recipient too: the
 * service refuses to start rather than fall back to the x402 library's public facilitator. The embedded
 * devnet's entry points name its treasury for both (devnet/accounts.ts `devnetPaymentSettings`).
 */
import { Effect, Option, Redacted, Schema } from "effect"
import { isAddress } from "viem"
import type { AppConfig } from "../AppConfig.js"

export class PaymentConfigError extends Schema.TaggedError<PaymentConfigError>()("PaymentConfigError", {
  message: Schema.String
}) {}

export type FacilitatorChoice =
  | { readonly _tag: "Remote"; readonly url: string; readonly timeoutMs: number }
  | { readonly _tag: "InProcess"; readonly settlementKey: Redacted.Redacted<`0x${string}`> }

export interface PaymentSettings {
  readonly facilitator: FacilitatorChoice
  readonly payTo: `0x${string}`
  /** Name and version of USDC's EIP-712 domain, offered in `extra` so payers can sign. */
  readonly eip712: { readonly name: string; readonly version: string }
  /** No single payment above this many USDC base units is asked for or accepted (5 USDC). */
  readonly ceiling: bigint
  /** `maxTimeoutSeconds` offered when an operation names none. */
  readonly defaultTimeoutSec: number
  /** An authorization expiring sooner than this is refused before the operation runs: it could not settle. */
  readonly minValiditySec: number
  /** In-process settlement: how often, and how long, a settlement's receipt is polled for. */
  readonly receiptPollMs: number
  readonly receiptTimeoutMs: number
  readonly settlement: SettlementSettings
}

/**
 * When a paid answer leaves: `confirmed` once its settlement is mined; `broadcast` once it is sent,
 * with the risk bounded (docs/payments.md#settlement-modes).
 */
export type SettlementMode = "confirmed" | "broadcast"

export interface SettlementSettings {
  readonly mode: SettlementMode
  /** Broadcast: past this many USDC base units served and not yet confirmed, calls settle `confirmed`. */
  readonly unconfirmedCap: bigint
  /** Broadcast: the same for one payer (its calls past it settle `confirmed`). */
  readonly payerCap: bigint
  /** Broadcast: how long a payer whose served settlement failed is refused, unless it pays the debt. */
  readonly debtRefusalSec: number
  /** Broadcast: a settlement not mined after this long is sent again, same nonce, higher fee. */
  readonly replaceAfterMs: number
  /** Broadcast: past its authorization's end, how long a node not answering is waited for a receipt. */
  readonly giveUpAfterMs: number
}

// Where a block, once made, is final and comes at a steady pace, a sent settlement lands in the next
// block or is known to have failed within a block or two: the wait buys little (Arc; the devnet).
const broadcastByDefault: ReadonlySet<string> = new Set(["devnet", "arc"])

const hexKey = /^0x[0-9a-fA-F]{64}$/

const refuse = (message: string) => Effect.fail(new PaymentConfigError({ message }))

/** Reads and checks the payment settings for a chain of the given profile. */
export const paymentSettings = (profile: string, settings: AppConfig["payment"]) =>
  Effect.gen(function*() {
    const facilitator: FacilitatorChoice = yield* Option.match(settings.facilitatorUrl, {
      onSome: (url) => {
        if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
          return refuse(`FACILITATOR_URL is not an http(s) URL: ${url}`)
        }
        return Effect.succeed<FacilitatorChoice>({ _tag: "Remote", url, timeoutMs: settings.facilitatorTimeoutMs })
      },
      onNone: () =>
        Option.match(settings.settlementKey, {
          onSome: (key) =>
            hexKey.test(Redacted.value(key))
              ? Effect.succeed<FacilitatorChoice>({
                _tag: "InProcess",
                settlementKey: key as Redacted.Redacted<`0x${string}`>
              })
              : refuse("SETTLEMENT_PRIVATE_KEY must be 0x and 32 bytes of hex"),
          onNone: () =>
            refuse(
              `no x402 facilitator configured on the ${profile} chain: set FACILITATOR_URL, or SETTLEMENT_PRIVATE_KEY to settle in-process`
            )
        })
    })
    const payTo = yield* Option.match(settings.payTo, {
      onSome: (address) =>
        isAddress(address, { strict: false })
          ? Effect.succeed(address)
          : refuse(`PAY_TO is not an address: ${address}`),
      onNone: () => refuse("PAY_TO (the fee recipient) is not set")
    })
    if (settings.ceiling <= 0n) return yield* refuse("PAYMENT_CEILING must be positive")
    if (settings.minValiditySec >= settings.defaultTimeoutSec) {
      return yield* refuse("PAYMENT_MIN_VALIDITY_SEC must be below PAYMENT_TIMEOUT_SEC")
    }
    // A remote facilitator answers settle once it has confirmed: only this process can answer on broadcast.
    const mode = Option.getOrElse(
      settings.settlementMode,
      (): SettlementMode =>
        facilitator._tag === "InProcess" && broadcastByDefault.has(profile) ? "broadcast" : "confirmed"
    )
    if (mode === "broadcast" && facilitator._tag === "Remote") {
      return yield* refuse("SETTLEMENT_MODE=broadcast settles in-process: it cannot be used with FACILITATOR_URL")
    }
    return {
      facilitator,
      payTo,
      eip712: { name: settings.eip712Name, version: settings.eip712Version },
      ceiling: settings.ceiling,
      defaultTimeoutSec: settings.defaultTimeoutSec,
      minValiditySec: settings.minValiditySec,
      receiptPollMs: settings.receiptPollMs,
      receiptTimeoutMs: settings.receiptTimeoutMs,
      settlement: {
        mode,
        unconfirmedCap: settings.unconfirmedCap,
        payerCap: settings.payerCap,
        debtRefusalSec: settings.debtRefusalSec,
        replaceAfterMs: settings.replaceAfterMs,
        giveUpAfterMs: settings.giveUpAfterMs
      }
    } satisfies PaymentSettings
  })

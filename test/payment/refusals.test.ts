/**
 * What the gate refuses, and when the facilitator or the configuration fails: every case leaves the
 * payer's and the fee recipient's balances as they were, and runs nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment } from "../../layers/Deployment.js"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { errorTable } from "../../schema/ErrorTable.js"
import type { Manifest } from "../../schema/Manifest.js"
import { AppServices } from "../../src/App.js"
import { usdcAbi } from "../support/abis.js"
import { walletFor } from "../support/wallet.js"
import { encodePayment, gateLayer, pay, USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const harness = gateHarness(2)
const { balances, call, offerOf, payTo, signFor } = harness

describe("refusals", () => {
  const refusal = async (charge: Charge, header: string) => {
    let outcome: Awaited<ReturnType<typeof call>> | undefined
    const delta = await balances(async () => {
      outcome = await call(charge, header)
    })
    expect(delta).toEqual([0n, 0n])
    if (outcome?._tag !== "Left" || outcome.left._tag !== "PaymentRejected") {
      throw new Error(`expected a rejection, got ${JSON.stringify(outcome)}`)
    }
    expect(outcome.left.offer.error).toBe(outcome.left.reason)
    return outcome.left
  }

  it("refuses a payment signed for another amount", async () => {
    const { header } = await signFor(search)
    expect((await refusal({ ...search, price: 10_000n }, header)).reason).toBe(
      "invalid_exact_evm_payload_authorization_value_mismatch"
    )
  })

  it("refuses an authorization above the 5 USDC single-payment ceiling", async () => {
    const offer = await offerOf(search)
    const inflated = { ...offer, accepts: offer.accepts.map((r) => ({ ...r, amount: "6000000" })) }
    const { header } = await pay(harness.payer(), inflated as unknown as LibraryOffer)
    const above = await refusal(search, header)
    expect(above.reason).toBe("invalid_exact_evm_payload_authorization_value_mismatch")
    expect(above.message).toContain("at most 5000000")
  })

  it("refuses an authorization that would expire before it could be settled", async () => {
    const { header } = await signFor({ ...search, maxTimeoutSeconds: 10 })
    expect((await refusal({ ...search, maxTimeoutSeconds: 10 }, header)).reason).toBe(
      "invalid_exact_evm_payload_authorization_valid_before"
    )
  })

  it("refuses another asset or network", async () => {
    const { payload } = await signFor(search)
    const otherAsset = {
      ...payload,
      accepted: { ...payload.accepted, asset: "0x000000000000000000000000000000000000dEaD" }
    }
    expect((await refusal(search, encodePayment(otherAsset))).reason).toBe("invalid_payment_requirements")
    const otherNetwork = { ...payload, accepted: { ...payload.accepted, network: "eip155:1" as const } }
    expect((await refusal(search, encodePayment(otherNetwork))).reason).toBe("invalid_network")
  })

  it("refuses a signature that does not match its authorization, and garbage", async () => {
    const { payload } = await signFor(search)
    const authorization = (payload.payload as { authorization: Record<string, string> }).authorization
    const raised = { ...payload, payload: { ...payload.payload, authorization: { ...authorization, validAfter: "1" } } }
    expect((await refusal(search, encodePayment(raised))).reason).toBe("invalid_exact_evm_payload_signature")
    expect((await refusal(search, "bm90IGEgcGF5bWVudA==")).reason).toBe("invalid_payload")
  })

  it("refuses a payer who cannot pay, at verification, before the operation runs", async () => {
    const broke = privateKeyToAccount(generatePrivateKey())
    const { header } = await signFor(search, broke)
    expect((await refusal(search, header)).reason).toBe("insufficient_funds")
  })

  it("tells an authorization already spent on chain from a payer who cannot pay (Multicall3 on the devnet)", async () => {
    const { header, payload } = await signFor(search)
    const { authorization, signature } = payload.payload as {
      authorization: { from: Hex; to: Hex; value: string; validAfter: string; validBefore: string; nonce: Hex }
      signature: Hex
    }
    // The payer spends its own authorization directly, so this gate's ledger has never seen it.
    const wallet = walletFor(harness.manifest(), harness.payer())
    await wallet.write(USDC, usdcAbi, "transferWithAuthorization", [
      authorization.from,
      authorization.to,
      BigInt(authorization.value),
      BigInt(authorization.validAfter),
      BigInt(authorization.validBefore),
      authorization.nonce,
      signature
    ])
    let outcome: Awaited<ReturnType<typeof call>> | undefined
    expect(await balances(async () => (outcome = await call(search, header)))).toEqual([0n, 0n])
    expect(outcome).toMatchObject({ _tag: "Left", left: { reason: "invalid_exact_evm_nonce_already_used" } })
  })
})

describe("facilitator failures", () => {
  const unavailable = async (settings: Record<string, string>, manifest: Manifest = harness.manifest()) => {
    const { header } = await signFor(search)
    const broken = ManagedRuntime.make(gateLayer(manifest, { PAY_TO: payTo, ...settings }))
    try {
      let runs = 0
      const outcome = await broken.runPromise(
        Effect.flatMap(
          PaymentGate,
          (g) =>
            Effect.either(g.charge(search, Option.some(SubmittedPayment.header(header)), Effect.sync(() => ++runs)))
        )
      )
      expect(runs).toBe(0)
      expect(outcome._tag === "Left" && outcome.left._tag).toBe("PaymentUnavailable")
      expect(errorTable.PaymentUnavailable).toMatchObject({ status: 502, next: "retry", retryAfterSec: 5 })
    } finally {
      await broken.dispose()
    }
  }

  it("answers payment_unavailable, not a rejection, when the chain cannot be reached to verify", () =>
    unavailable({}, { ...harness.manifest(), rpcUrl: "http://127.0.0.1:9" }))
})

describe("configuration", () => {
  const start = (settings: Record<string, string>) =>
    Effect.either(Layer.build(gateLayer(harness.manifest(), settings, {})).pipe(Effect.scoped))

  it.effect("refuses to start on a chain other than the devnet with no facilitator named", () =>
    Effect.gen(function*() {
      const outcome = yield* start({ CHAIN_PROFILE: "arc", PAY_TO: payTo })
      expect(outcome._tag === "Left" && outcome.left).toMatchObject({
        _tag: "PaymentConfigError",
        message: expect.stringContaining("no x402 facilitator configured")
      })
    }))

  it.effect("keeps the whole service from starting, not only the gate", () =>
    Effect.gen(function*() {
      const service = AppServices(Layer.succeed(Deployment, Deployment.make(harness.manifest()))).pipe(
        Layer.provide(
          AppConfig.withSettings({
            CHAIN_PROFILE: "arc",
            PAY_TO: payTo,
            DATA_DIR: mkdtempSync(join(tmpdir(), "pay-"))
          })
        )
      )
      const outcome = yield* Effect.either(Layer.build(service).pipe(Effect.scoped))
      expect(outcome._tag === "Left" && outcome.left).toMatchObject({ _tag: "PaymentConfigError" })
    }))

  it.effect("refuses to start on a chain other than the devnet with no fee recipient", () =>
    Effect.gen(function*() {
      const outcome = yield* start({ CHAIN_PROFILE: "arc", FACILITATOR_URL: "https://facilitator.example" })
      expect(outcome._tag === "Left" && outcome.left).toMatchObject({ _tag: "PaymentConfigError" })
    }))

  it.effect("refuses an empty or non-http facilitator URL instead of using the library's public default", () =>
    Effect.gen(function*() {
      for (const url of ["", "x402.org/facilitator", "ftp://facilitator.example"]) {
        const outcome = yield* start({ CHAIN_PROFILE: "arc", PAY_TO: payTo, FACILITATOR_URL: url })
        expect(outcome._tag === "Left" && outcome.left).toMatchObject({ _tag: "PaymentConfigError" })
      }
    }))
})

/**
 * The payment gate on a private devnet with real signatures (the public x402 client and exact EVM
 * scheme with a manifest account) and real settlements on the chain's USDC: what was charged is read
 * back from balances, never from the gate's own word.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import type { PrivateKeyAccount } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { InsufficientLiquidity } from "../../schema/Errors.js"
import { errorTable } from "../../schema/ErrorTable.js"
import type { Manifest } from "../../schema/Manifest.js"
import { freshAccount, manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { encodePayment, gateLayer, pay, USDC } from "../support/x402.js"

let devnet: PrivateDevnet
let runtime: ManagedRuntime.ManagedRuntime<PaymentGate, unknown>
const payTo = privateKeyToAccount(generatePrivateKey()).address
let payer: PrivateKeyAccount

beforeAll(async () => {
  devnet = await startDevnet()
  payer = manifestAccount(devnet.manifest, 3)
  runtime = ManagedRuntime.make(gateLayer(devnet.manifest, { PAY_TO: payTo }))
})
afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

const search: Charge = {
  price: 5_000n,
  resource: { url: "http://service.test/trade/v1/search", description: "search" }
}
const gate = <A, E>(use: (gate: PaymentGate["Type"]) => Effect.Effect<A, E>) =>
  runtime.runPromise(Effect.flatMap(PaymentGate, use))
const offerOf = (charge: Charge) => gate((g) => Effect.succeed(g.offer(charge)))
const signFor = async (charge: Charge, account = payer) =>
  pay(account, (await offerOf(charge)) as unknown as LibraryOffer)

/** Runs `charge` with the header and an operation that counts its runs; answers the outcome. */
const call = (
  charge: Charge,
  header: string | undefined,
  operation: Effect.Effect<string, InsufficientLiquidity> = Effect.succeed("answer")
) =>
  gate((g) =>
    Effect.either(
      g.charge(charge, Option.map(Option.fromNullable(header), SubmittedPayment.header), operation)
    )
  )

const balances = (action: () => Promise<unknown>) =>
  walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], action)

describe("offer", () => {
  it("asks for exact USDC on eip155:5042 to the fee recipient with the USDC EIP-712 domain, the same every time", async () => {
    const outcome = await call(search, undefined)
    expect(outcome._tag).toBe("Left")
    if (outcome._tag !== "Left" || outcome.left._tag !== "PaymentDemanded") throw new Error("expected a demand")
    const demand = outcome.left
    const header = await gate((g) => Effect.succeed(g.encodeOffer(demand.offer)))
    expect(decodePaymentRequiredHeader(header)).toEqual({
      x402Version: 2,
      resource: search.resource,
      accepts: [{
        scheme: "exact",
        network: "eip155:5042",
        asset: USDC,
        amount: "5000",
        payTo,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" }
      }]
    })
    expect(await gate((g) => Effect.succeed(g.encodeOffer(g.offer(search))))).toBe(header)
    expect(errorTable[demand.error._tag]).toMatchObject({ code: "payment_required", status: 402, next: "pay" })
  })

  it("never offers a price above the 5 USDC ceiling", async () => {
    const outcome = await call({ ...search, price: 5_000_001n }, "irrelevant")
    expect(outcome._tag === "Left" && outcome.left._tag).toBe("Internal")
  })

  it("runs a free call without payment and ignores one sent anyway", async () => {
    const { header } = await signFor(search)
    const [, delta] = await Promise.all([
      call({ ...search, price: 0n }, undefined),
      balances(() => call({ ...search, price: 0n }, header))
    ])
    expect(delta).toEqual([0n, 0n])
  })
})

describe("settlement", () => {
  it("charges exactly the price, once, and answers the on-chain receipt", async () => {
    const { header } = await signFor(search)
    let runs = 0
    let outcome: Awaited<ReturnType<typeof call>> | undefined
    const delta = await balances(async () => {
      outcome = await call(search, header, Effect.sync(() => `run ${++runs}`))
    })
    expect(delta).toEqual([-5_000n, 5_000n])
    expect(runs).toBe(1)
    if (outcome?._tag !== "Right") throw new Error(`expected a paid answer, got ${JSON.stringify(outcome)}`)
    expect(outcome.right.value).toBe("run 1")
    const receipt = Option.getOrThrow(outcome.right.receipt)
    const decoded = decodePaymentResponseHeader(receipt.header)
    expect(decoded).toEqual({
      success: true,
      payer: payer.address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: "eip155:5042"
    })
    const mined = await walletFor(devnet.manifest, payer).public.getTransactionReceipt({
      hash: decoded.transaction as `0x${string}`
    })
    expect(mined.status).toBe("success")
  })

  it("charges nothing when the operation fails, and the authorization can then pay for another call", async () => {
    const { header } = await signFor(search)
    const failed = await balances(() =>
      call(search, header, Effect.fail(new InsufficientLiquidity({ message: "too thin" })))
    )
    expect(failed).toEqual([0n, 0n])
    const paid = await balances(async () => expect((await call(search, header))._tag).toBe("Right"))
    expect(paid).toEqual([-5_000n, 5_000n])
  })

  it("refuses a replayed authorization with an empty-body rejection and runs nothing", async () => {
    const { header } = await signFor(search)
    expect((await call(search, header))._tag).toBe("Right")
    let runs = 0
    let outcome: Awaited<ReturnType<typeof call>> | undefined
    const delta = await balances(async () => {
      outcome = await call(search, header, Effect.sync(() => `run ${++runs}`))
    })
    expect(delta).toEqual([0n, 0n])
    expect(runs).toBe(0)
    expect(outcome?._tag === "Left" && outcome.left).toMatchObject({
      _tag: "PaymentRejected",
      reason: "authorization_used"
    })
  })

  it("runs and settles once when two requests carry the same authorization at once", async () => {
    const { header } = await signFor(search)
    let runs = 0
    const slow = Effect.sync(() => ++runs).pipe(Effect.zipRight(Effect.sleep("200 millis")), Effect.as("answer"))
    let outcomes: Array<Awaited<ReturnType<typeof call>>> = []
    const delta = await balances(async () => {
      outcomes = await Promise.all([call(search, header, slow), call(search, header, slow)])
    })
    expect(delta).toEqual([-5_000n, 5_000n])
    expect(runs).toBe(1)
    expect(outcomes.map((o) => o._tag).sort()).toEqual(["Left", "Right"])
    const refused = outcomes.find((o) => o._tag === "Left")
    expect(refused?._tag === "Left" && refused.left).toMatchObject({
      _tag: "PaymentRejected",
      reason: "authorization_used"
    })
  })
})

describe("failed settlement", () => {
  it("withholds the answer and charges nothing when the payer empties its balance while the call runs", async () => {
    const drained = await freshAccount(devnet.manifest)
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address
    await walletFor(devnet.manifest, payer).transfer(USDC, drained.address, 5_000n)
    const { header } = await signFor(search, drained)
    const drain = Effect.promise(() => walletFor(devnet.manifest, drained).transfer(USDC, elsewhere, 5_000n))
    let outcome: Awaited<ReturnType<typeof call>> | undefined
    const delta = await walletFor(devnet.manifest, drained).deltas(
      USDC,
      [drained.address, payTo, elsewhere],
      async () => {
        outcome = await call(search, header, Effect.as(drain, "answer"))
      }
    )
    expect(delta).toEqual([-5_000n, 0n, 5_000n])
    expect(outcome?._tag === "Left" && outcome.left).toMatchObject({
      _tag: "PaymentRejected",
      settlement: { success: false, errorReason: expect.any(String), payer: drained.address }
    })
  })
})

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
    expect((await refusal({ ...search, price: 10_000n }, header)).reason).toBe("amount_mismatch")
  })

  it("refuses an authorization above the 5 USDC single-payment ceiling", async () => {
    const offer = await offerOf(search)
    const inflated = { ...offer, accepts: offer.accepts.map((r) => ({ ...r, amount: "6000000" })) }
    const { header } = await pay(payer, inflated as unknown as LibraryOffer)
    expect((await refusal(search, header)).reason).toBe("amount_above_ceiling")
  })

  it("refuses an authorization that would expire before it could be settled", async () => {
    const { header } = await signFor({ ...search, maxTimeoutSeconds: 10 })
    expect((await refusal({ ...search, maxTimeoutSeconds: 10 }, header)).reason).toBe("authorization_expiring")
  })

  it("refuses another asset or network", async () => {
    const { payload } = await signFor(search)
    const otherAsset = {
      ...payload,
      accepted: { ...payload.accepted, asset: "0x000000000000000000000000000000000000dEaD" }
    }
    expect((await refusal(search, encodePayment(otherAsset))).reason).toBe("asset_mismatch")
    const otherNetwork = { ...payload, accepted: { ...payload.accepted, network: "eip155:1" as const } }
    expect((await refusal(search, encodePayment(otherNetwork))).reason).toBe("network_mismatch")
  })

  it("refuses a signature that does not match its authorization, and garbage", async () => {
    const { payload } = await signFor(search)
    const authorization = (payload.payload as { authorization: Record<string, string> }).authorization
    const raised = { ...payload, payload: { ...payload.payload, authorization: { ...authorization, validAfter: "1" } } }
    expect((await refusal(search, encodePayment(raised))).reason).toMatch(/signature/)
    expect((await refusal(search, "bm90IGEgcGF5bWVudA==")).reason).toBe("invalid_payload")
  })

  it("refuses a payer who cannot pay, at verification, before the operation runs", async () => {
    const broke = privateKeyToAccount(generatePrivateKey())
    const { header } = await signFor(search, broke)
    expect((await refusal(search, header)).reason).toMatch(/balance|simulation/)
  })
})

describe("facilitator failures", () => {
  const unavailable = async (settings: Record<string, string>, manifest: Manifest = devnet.manifest) => {
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

  it("answers payment_unavailable when the remote facilitator does not answer", () =>
    unavailable({ FACILITATOR_URL: "http://127.0.0.1:9/x402" }))

  it("answers payment_unavailable, not a rejection, when the chain cannot be reached to verify", () =>
    unavailable({}, { ...devnet.manifest, rpcUrl: "http://127.0.0.1:9" }))
})

describe("configuration", () => {
  const start = (settings: Record<string, string>) =>
    Effect.runPromise(
      Effect.either(Layer.build(gateLayer(devnet.manifest, settings)).pipe(Effect.scoped))
    )

  it("refuses to start on a chain other than the devnet with no facilitator named", async () => {
    const outcome = await start({ CHAIN_PROFILE: "arc", PAY_TO: payTo })
    expect(outcome._tag === "Left" && outcome.left).toMatchObject({
      _tag: "PaymentConfigError",
      message: expect.stringContaining("no x402 facilitator configured")
    })
  })

  it("refuses to start on a chain other than the devnet with no fee recipient", async () => {
    const outcome = await start({ CHAIN_PROFILE: "arc", FACILITATOR_URL: "https://facilitator.example" })
    expect(outcome._tag === "Left" && outcome.left).toMatchObject({ _tag: "PaymentConfigError" })
  })

  it("refuses an empty or non-http facilitator URL instead of using the library's public default", async () => {
    for (const url of ["", "x402.org/facilitator", "ftp://facilitator.example"]) {
      const outcome = await start({ CHAIN_PROFILE: "arc", PAY_TO: payTo, FACILITATOR_URL: url })
      expect(outcome._tag === "Left" && outcome.left).toMatchObject({ _tag: "PaymentConfigError" })
    }
  })
})

/**
 * The payment gate on a private devnet with real signatures (the public x402 client and exact EVM
 * scheme with a manifest account) and real settlements on the chain's USDC: what was charged is read
 * back from balances, never from the gate's own word.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import { Effect, Option } from "effect"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { describe, expect, it } from "vitest"
import { InsufficientLiquidity } from "../../schema/Errors.js"
import { errorTable } from "../../schema/ErrorTable.js"
import { freshAccount } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const harness = gateHarness(3)
const { balances, call, gate, payTo, signFor } = harness

describe("offer", () => {
  it("asks for exact USDC on eip155:5042 to the fee recipient with the USDC EIP-712 domain, the same every time", async () => {
    const outcome = await call(search, undefined)
    expect(outcome._tag).toBe("Left")
    if (outcome._tag !== "Left" || outcome.left._tag !== "PaymentDemanded") throw new Error("expected a demand")
    const demand = outcome.left
    const header = await gate((g) => Effect.succeed(g.encodeOffer(demand.offer)))
    expect(decodePaymentRequiredHeader(header)).toEqual({
      x402Version: 2,
      error: "Payment required",
      resource: { ...search.resource, mimeType: "application/json" },
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
    expect(await gate((g) => Effect.succeed(g.encodeOffer(g.offer(search, "Payment required"))))).toBe(header)
    expect(errorTable[demand.error._tag]).toMatchObject({ code: "payment_required", status: 402, next: "pay" })
  })

  it("never offers a price above the 5 USDC ceiling", async () => {
    for (const header of [undefined, "irrelevant"]) {
      const outcome = await call({ ...search, price: 5_000_001n }, header)
      expect(outcome._tag === "Left" && outcome.left._tag).toBe("Internal")
    }
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
      payer: harness.payer().address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: "eip155:5042"
    })
    const mined = await walletFor(harness.manifest(), harness.payer()).public.getTransactionReceipt({
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
      reason: "invalid_exact_evm_nonce_already_used"
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
      reason: "invalid_exact_evm_nonce_already_used"
    })
  })
})

describe("failed settlement", () => {
  it("withholds the answer and charges nothing when the payer empties its balance while the call runs", async () => {
    const drained = await freshAccount(harness.manifest())
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address
    await walletFor(harness.manifest(), harness.payer()).transfer(USDC, drained.address, 5_000n)
    const { header } = await signFor(search, drained)
    const drain = Effect.promise(() => walletFor(harness.manifest(), drained).transfer(USDC, elsewhere, 5_000n))
    let outcome: Awaited<ReturnType<typeof call>> | undefined
    const delta = await walletFor(harness.manifest(), drained).deltas(
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

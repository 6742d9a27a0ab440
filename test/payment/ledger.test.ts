/**
 * The authorization ledger's rules, for the in-memory layer and the Redis layer alike, and the Redis
 * layer holding the one-call rule across two gates (two replicas) on the devnet. The Redis cases need
 * a Redis at `REDIS_URL` (127.0.0.1:6379 by default) and are skipped, saying so, when none answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { Clock, Context, Effect, Layer, ManagedRuntime, Option, TestClock } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { AuthorizationLedger, type Claim } from "../../layers/payment/AuthorizationLedger.js"
import { redisLedger } from "../../layers/payment/RedisLedger.js"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { dropKeys, redisUp, redisUrl } from "../support/redis.js"
import { until } from "../support/until.js"
import { walletFor } from "../support/wallet.js"
import { gateLayer, pay, USDC } from "../support/x402.js"

const key = () => `test/${randomBytes(16).toString("hex")}`
// This file's keys in the machine's Redis, deleted after; a second deployment's beside them.
const prefix = `test:ledger:${randomUUID()}:`
const otherPrefix = `test:ledger:${randomUUID()}:`
afterAll(() => Promise.all([dropKeys(prefix), dropKeys(otherPrefix)]))
const inAMinute = Effect.map(Clock.currentTimeMillis, (nowMs) => nowMs + 60_000)

/**
 * The rules every ledger keeps, run on `TestClock`: the in-memory ledger reads that clock; Redis takes
 * the lifetime computed from it and expires the key on its own clock, so an expiry is waited for by
 * asking again (a bounded number of times), never by a fixed sleep.
 */
const rules = (name: string, layer: () => Layer.Layer<AuthorizationLedger, unknown>, skip = false) =>
  describe.skipIf(skip)(`${name} ledger`, () => {
    const tokenOf = (claim: Claim) => claim._tag === "Taken" ? expect.fail("the claim was taken") : claim.token

    it.effect("lets one claim win, until its holder releases it", () =>
      Effect.gen(function*() {
        const ledger = yield* AuthorizationLedger
        const k = key()
        const first = yield* ledger.claim(k, yield* inAMinute)
        expect(first._tag).toBe("Fresh")
        expect(yield* ledger.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
        yield* ledger.release(k, "someone else's claim")
        expect(yield* ledger.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
        yield* ledger.release(k, tokenOf(first))
        expect((yield* ledger.claim(k, yield* inAMinute))._tag).toBe("Fresh")
      }).pipe(Effect.provide(layer())))

    it.effect("refuses a spent authorization until it expires", () =>
      Effect.gen(function*() {
        const ledger = yield* AuthorizationLedger
        const spent = key()
        const claim = yield* ledger.claim(spent, yield* inAMinute)
        yield* ledger.spend(spent, yield* inAMinute)
        yield* ledger.release(spent, tokenOf(claim))
        expect(yield* ledger.claim(spent, yield* inAMinute)).toEqual({ _tag: "Taken" })
        const expiring = key()
        yield* ledger.spend(expiring, (yield* Clock.currentTimeMillis) + 50)
        yield* TestClock.adjust("51 millis")
        const reclaimed = yield* until(
          "the spent authorization to expire",
          Effect.flatMap(inAMinute, (expiresAtMs) =>
            Effect.map(ledger.claim(expiring, expiresAtMs), (claim) =>
              claim._tag === "Fresh" ? claim : undefined)),
          { attempts: 100, spacingMs: 20 }
        )
        expect(reclaimed._tag).toBe("Fresh")
      }).pipe(Effect.provide(layer())))

    it.effect("hands a pending settlement's transaction to the next claim, one claim at a time", () =>
      Effect.gen(function*() {
        const ledger = yield* AuthorizationLedger
        const k = key()
        const first = yield* ledger.claim(k, yield* inAMinute)
        yield* ledger.pending(k, "someone else's claim", "0xnot", yield* inAMinute)
        expect(yield* ledger.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
        yield* ledger.pending(k, tokenOf(first), "0xsent", yield* inAMinute)
        const second = yield* ledger.claim(k, yield* inAMinute)
        expect(second).toMatchObject({ _tag: "Pending", transaction: "0xsent" })
        expect(yield* ledger.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
        // Released unsettled: pending again on the same transaction, not free.
        yield* ledger.release(k, tokenOf(second))
        const third = yield* ledger.claim(k, yield* inAMinute)
        expect(third).toMatchObject({ _tag: "Pending", transaction: "0xsent" })
        yield* ledger.spend(k, yield* inAMinute)
        expect(yield* ledger.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
      }).pipe(Effect.provide(layer())))

    it.effect("keeps the payment library's pending settlements by signature", () =>
      Effect.gen(function*() {
        const ledger = yield* AuthorizationLedger
        yield* Effect.promise(async () => {
          const signature = `0x${randomBytes(65).toString("hex")}`
          expect(await ledger.settlements.get(signature)).toBeUndefined()
          await ledger.settlements.set(signature, "0xsent")
          expect(await ledger.settlements.get(signature)).toBe("0xsent")
          await ledger.settlements.delete(signature)
          expect(await ledger.settlements.get(signature)).toBeUndefined()
        })
      }).pipe(Effect.provide(layer())))
  })

rules("in-memory", () => AuthorizationLedger.layerMemory)
rules("Redis", () => redisLedger(redisUrl, prefix), !redisUp)

describe.skipIf(!redisUp)("Redis ledgers under two prefixes", () => {
  it.live("do not see each other's authorizations or pending settlements; one prefix is one ledger", () =>
    Effect.scoped(Effect.gen(function*() {
      const build = (under: string) =>
        Effect.map(Layer.build(redisLedger(redisUrl, under)), (built) => Context.get(built, AuthorizationLedger))
      const [one, sameAsOne, other] = [yield* build(prefix), yield* build(prefix), yield* build(otherPrefix)]
      const k = key()
      expect((yield* one.claim(k, yield* inAMinute))._tag).toBe("Fresh")
      expect(yield* sameAsOne.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
      expect((yield* other.claim(k, yield* inAMinute))._tag).toBe("Fresh")
      yield* other.spend(k, yield* inAMinute)
      expect(yield* other.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
      const signature = `0x${randomBytes(65).toString("hex")}`
      yield* Effect.promise(() => one.settlements.set(signature, "0xsent"))
      expect(yield* Effect.promise(() => sameAsOne.settlements.get(signature))).toBe("0xsent")
      expect(yield* Effect.promise(() => other.settlements.get(signature))).toBeUndefined()
    })))
})

describe("in-memory ledger on the clock", () => {
  it.effect("a spent authorization is refused up to the instant it expires, and claimable from then", () =>
    Effect.gen(function*() {
      const ledger = yield* AuthorizationLedger
      const k = key()
      yield* ledger.spend(k, (yield* Clock.currentTimeMillis) + 50)
      yield* TestClock.adjust("49 millis")
      expect(yield* ledger.claim(k, yield* inAMinute)).toEqual({ _tag: "Taken" })
      yield* TestClock.adjust("1 millis")
      expect((yield* ledger.claim(k, yield* inAMinute))._tag).toBe("Fresh")
    }).pipe(Effect.provide(AuthorizationLedger.layerMemory)))
})

describe.skipIf(!redisUp)("Redis ledger across replicas", () => {
  let devnet: PrivateDevnet
  const payTo = privateKeyToAccount(generatePrivateKey()).address
  let replicas: Array<ManagedRuntime.ManagedRuntime<PaymentGate, unknown>> = []
  beforeAll(async () => {
    devnet = await startDevnet()
    replicas = [0, 1].map(() =>
      ManagedRuntime.make(gateLayer(devnet.manifest, { PAY_TO: payTo, REDIS_URL: redisUrl, REDIS_PREFIX: prefix }))
    )
  })
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.dispose()))
    await devnet?.stop()
  })

  it("runs and settles once when two replicas get the same authorization at once", async () => {
    const payer = manifestAccount(devnet.manifest, 5)
    const charge: Charge = { price: 5_000n, resource: { url: "http://service.test/trade/v1/quote" } }
    const offer = await replicas[0]!.runPromise(Effect.map(PaymentGate, (gate) => gate.offer(charge)))
    const { header } = await pay(payer, offer as unknown as LibraryOffer)
    let runs = 0
    const outcomes: Array<string> = []
    // The operation that won the claim holds it until the other replica has been answered, so the two
    // calls overlap whatever the machine's speed.
    const slow = Effect.sync(() => ++runs).pipe(
      Effect.zipRight(until("the other replica to answer", Effect.sync(() => outcomes.length > 0))),
      Effect.orDie
    )
    const delta = await walletFor(devnet.manifest, payer).deltas(
      USDC,
      [payer.address, payTo],
      () =>
        Promise.all(replicas.map((replica) =>
          replica.runPromise(
            Effect.flatMap(PaymentGate, (gate) =>
              gate.charge(charge, Option.some(SubmittedPayment.header(header)), slow).pipe(
                Effect.match({
                  onFailure: (e) => e._tag,
                  onSuccess: () => "paid"
                }),
                Effect.tap((outcome) => Effect.sync(() => outcomes.push(outcome)))
              ))
          )
        ))
    )
    expect(outcomes.sort()).toEqual(["PaymentRejected", "paid"])
    expect(runs).toBe(1)
    expect(delta).toEqual([-5_000n, 5_000n])
  })

  it("fails to start when Redis cannot be reached", async () => {
    const outcome = await Effect.runPromise(
      Effect.either(Effect.scoped(Layer.build(redisLedger("redis://127.0.0.1:9", prefix))))
    )
    expect(outcome._tag === "Left" && outcome.left._tag).toBe("LedgerUnavailable")
  })
})

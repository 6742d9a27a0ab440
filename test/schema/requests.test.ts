import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { decodeRequest } from "../../schema/Decode.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ReceiptRequest } from "../../schema/Receipt.js"
import { SwapRequest, SwapTxRequest } from "../../schema/Swap.js"

const decode = <A, I>(schema: Parameters<typeof decodeRequest<A, I>>[0], input: unknown) =>
  Effect.either(decodeRequest(schema)(input))

const issuesOf = <A>(
  result: Either.Either<A, { details: ReadonlyArray<{ code: string; path: ReadonlyArray<unknown> }> }>
) =>
  Either.match(result, {
    onLeft: (error) => error.details.map(({ code, path }) => ({ code, path })),
    onRight: () => []
  })

const hash = `0x${"ab".repeat(32)}`
const lower = "0x5fbdb2315678afecb367f032d93f642f64180aa3"

describe("request schemas", () => {
  it.effect("quote fills the documented defaults", () =>
    Effect.gen(function*() {
      const result = yield* decode(QuoteRequest, { sell: lower, buy: lower, amount: "1.5" })
      expect(Either.getOrThrow(result)).toEqual({
        sell: lower,
        buy: lower,
        amount: "1.5",
        side: "exactIn",
        slippageBps: 100,
        ttlSec: 120,
        maxSplits: 3,
        maxHops: 2
      })
    }))

  it.effect("quote bounds ttlSec to 1..120 (amounts are checked by the operation: invalid_amount)", () =>
    Effect.gen(function*() {
      expect(issuesOf(yield* decode(QuoteRequest, { sell: lower, buy: lower, amount: "1", ttlSec: 121 }))).toEqual([
        { code: "invalid_value", path: ["ttlSec"] }
      ])
      expect(issuesOf(yield* decode(QuoteRequest, { sell: lower, buy: lower, amount: "1", ttlSec: 0 }))).toEqual([
        { code: "invalid_value", path: ["ttlSec"] }
      ])
    }))

  it.effect("swap checksums addresses given in any case and refuses a permit field", () =>
    Effect.gen(function*() {
      const ok = Either.getOrThrow(yield* decode(SwapRequest, { quoteId: "q_0123456789abcdef", taker: lower }))
      expect(ok.taker).toBe("0x5FbDB2315678afecb367f032d93F642f64180aa3")
      // No approval named stays unnamed (native funding may then pay); named, it is kept as named.
      expect(ok).toMatchObject({ deadlineSec: 300 })
      expect(ok.approval).toBeUndefined()
      const named = Either.getOrThrow(
        yield* decode(SwapRequest, { quoteId: "q_0123456789abcdef", taker: lower, approval: "approve" })
      )
      expect(named.approval).toBe("approve")
      expect(issuesOf(yield* decode(SwapRequest, { quoteId: "q_0123456789abcdef", taker: lower, permit: {} }))).toEqual(
        [{ code: "unrecognized_key", path: ["permit"] }]
      )
    }))

  it.effect("quote ids must have the q_<hex> form", () =>
    Effect.gen(function*() {
      expect(issuesOf(yield* decode(SwapRequest, { quoteId: "Q-12", taker: lower }))).toEqual([
        { code: "invalid_value", path: ["quoteId"] }
      ])
    }))

  it.effect("swap/tx requires the permit and has no approval field", () =>
    Effect.gen(function*() {
      expect(issuesOf(yield* decode(SwapTxRequest, { quoteId: "q_0123456789abcdef", taker: lower }))).toEqual([
        { code: "missing", path: ["permit"] }
      ])
      expect(
        issuesOf(
          yield* decode(SwapTxRequest, {
            quoteId: "q_0123456789abcdef",
            taker: lower,
            approval: "approve",
            permit: {
              message: {
                details: { token: lower, amount: "1", expiration: "1800000000", nonce: 0 },
                spender: lower,
                sigDeadline: "1800000000"
              },
              signature: "0x00"
            }
          })
        )
      ).toEqual([{ code: "unrecognized_key", path: ["approval"] }])
      const paths = issuesOf(
        yield* decode(SwapTxRequest, {
          quoteId: "q_0123456789abcdef",
          taker: lower,
          permit: { message: { details: {}, spender: lower, sigDeadline: "x" }, signature: "0x00" }
        })
      ).map((issue) => issue.path.join("."))
      expect([...new Set(paths)]).toEqual([
        "permit.message.details.token",
        "permit.message.details.amount",
        "permit.message.details.expiration",
        "permit.message.details.nonce",
        "permit.message.sigDeadline"
      ])
    }))

  it.effect("receipt takes 1 to 4 transaction hashes", () =>
    Effect.gen(function*() {
      expect(Either.isRight(yield* decode(ReceiptRequest, { quoteId: "q_0123456789abcdef", txHashes: [hash] }))).toBe(
        true
      )
      expect(issuesOf(yield* decode(ReceiptRequest, { quoteId: "q_0123456789abcdef", txHashes: [] }))).toEqual([
        { code: "invalid_value", path: ["txHashes"] }
      ])
      expect(
        issuesOf(
          yield* decode(ReceiptRequest, { quoteId: "q_0123456789abcdef", txHashes: [hash, hash, hash, hash, hash] })
        )
      ).toEqual([{ code: "invalid_value", path: ["txHashes"] }])
    }))
})

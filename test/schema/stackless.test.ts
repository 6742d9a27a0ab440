/**
 * Refusals made without a stack trace (the 402 offer on every unpaid call): the error has no frames,
 * and every other error keeps its stack, even when making the refusal threw.
 */
import { describe, expect, it } from "@effect/vitest"
import { PaymentUnavailable } from "../../schema/Errors.js"
import { withoutStack } from "../../schema/Stackless.js"

const framesOf = (error: Error) => (error.stack ?? "").split("\n").filter((line) => line.trim().startsWith("at "))

describe("withoutStack", () => {
  it("makes an error with no frames, and leaves later errors theirs", () => {
    const limit = Error.stackTraceLimit
    const refusal = withoutStack(() => new PaymentUnavailable({ message: "the payment facilitator is unavailable" }))
    expect(refusal._tag).toBe("PaymentUnavailable")
    expect(framesOf(refusal)).toEqual([])
    expect(Error.stackTraceLimit).toBe(limit)
    expect(framesOf(new Error("a fault")).length).toBeGreaterThan(0)
  })

  it("restores the stack limit when making the error throws", () => {
    const limit = Error.stackTraceLimit
    expect(() =>
      withoutStack(() => {
        throw new Error("no offer")
      })
    ).toThrow("no offer")
    expect(Error.stackTraceLimit).toBe(limit)
  })
})

/** `grossUp` is the least amount to send for at least `received` to arrive, for any tax and amount. */
import { describe, expect, it } from "@effect/vitest"
import { afterTax, grossUp } from "../../src/math/TransferTax.js"

describe("grossUp", () => {
  it("delivers at least the amount, and one unit less does not", () => {
    for (const taxBps of [0n, 1n, 3n, 300n, 500n, 3333n, 9999n]) {
      for (const received of [1n, 2n, 7n, 99n, 10_001n, 123_456_789n, 10n ** 24n + 17n]) {
        const sent = grossUp(received, taxBps)!
        expect(afterTax(sent, taxBps)).toBeGreaterThanOrEqual(received)
        expect(afterTax(sent - 1n, taxBps)).toBeLessThan(received)
      }
    }
  })

  it("a 100 % tax can deliver nothing", () => {
    expect(grossUp(5n, 10_000n)).toBeUndefined()
  })
})

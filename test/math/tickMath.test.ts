import { describe, expect, it } from "@effect/vitest"
import { sqrt } from "../../src/math/FullMath.js"
import {
  getSqrtPriceAtTick,
  getTickAtSqrtPrice,
  MAX_SQRT_PRICE,
  MAX_TICK,
  MIN_SQRT_PRICE,
  MIN_TICK
} from "../../src/math/TickMath.js"

describe("TickMath", () => {
  it("matches the contracts' bounds and tick 0", () => {
    expect(getSqrtPriceAtTick(MIN_TICK)).toBe(MIN_SQRT_PRICE)
    expect(getSqrtPriceAtTick(MAX_TICK)).toBe(MAX_SQRT_PRICE)
    expect(getSqrtPriceAtTick(0)).toBe(1n << 96n)
  })

  it("agrees with a float model away from the bounds", () => {
    for (const tick of [-500, -50, 50, 100, 250, 10_000]) {
      const model = Math.sqrt(1.0001 ** tick) * 2 ** 96
      expect(Math.abs(Number(getSqrtPriceAtTick(tick)) / model - 1)).toBeLessThan(1e-12)
    }
  })

  it("inverts getSqrtPriceAtTick at and between ticks", () => {
    for (const tick of [MIN_TICK, -887271, -200_000, -60, -1, 0, 1, 60, 200_000, MAX_TICK - 1]) {
      const price = getSqrtPriceAtTick(tick)
      expect(getTickAtSqrtPrice(price)).toBe(tick)
      expect(getTickAtSqrtPrice(getSqrtPriceAtTick(tick + 1) - 1n)).toBe(tick)
    }
    expect(getTickAtSqrtPrice(MAX_SQRT_PRICE - 1n)).toBe(MAX_TICK - 1)
  })

  it("takes integer square roots exactly", () => {
    for (const value of [0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n, (1n << 200n) + 12345n, (1n << 320n) - 1n]) {
      const root = sqrt(value)
      expect(root * root <= value).toBe(true)
      expect((root + 1n) * (root + 1n) > value).toBe(true)
    }
  })
})

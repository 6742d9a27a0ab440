/**
 * Owner flags from bytecode, and what counts as a verdict that got worse at swap time: pure functions
 * over the fixtures' compiled code (contracts/safety/) and verdict pairs.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import type { Hex } from "viem"
import type { SafetyVerdict } from "../../schema/Token.js"
import { flagsOf, pushedSelectors } from "../../src/safety/check/OwnerPowers.js"
import { worsened } from "../../src/swap/Rejudge.js"

const runtimeCode = (name: string) =>
  (JSON.parse(readFileSync(`build/contracts/${name}.json`, "utf8")) as { deployedBytecode: Hex }).deployedBytecode

describe("owner flags from the code", () => {
  it("finds the dispatched selectors, not bytes inside other pushes", () => {
    // PUSH32 whose data holds 0x63 + a selector, then a real PUSH4.
    const code = `0x7f63aabbccdd${"00".repeat(27)}63f9f92be4` as Hex
    expect([...pushedSelectors(code)]).toEqual(["f9f92be4"])
  })

  it("a blacklist setter behind a live owner flags `owner_can_blacklist`; renounced, nothing", () => {
    const codes = [runtimeCode("BlacklistToken")]
    expect(flagsOf({ upgradeable: false, owned: true, codes })).toEqual(["owner_can_blacklist"])
    expect(flagsOf({ upgradeable: false, owned: false, codes })).toEqual([])
  })

  it("a tax setter flags `owner_can_set_tax`; a plain token with an owner, nothing", () => {
    expect(flagsOf({ upgradeable: false, owned: true, codes: [runtimeCode("TaxRaiseToken")] }))
      .toEqual(["owner_can_set_tax"])
    expect(flagsOf({ upgradeable: false, owned: true, codes: [runtimeCode("SecondEmitterToken")] })).toEqual([])
  })
})

const verdict = (v: SafetyVerdict["verdict"], buyTaxBps: number | null, sellTaxBps: number | null) =>
  ({ verdict: v, buyTaxBps, sellTaxBps }) as SafetyVerdict

describe("a verdict that got worse", () => {
  it("down the ladder, or a tax higher by more than rounding", () => {
    expect(worsened(verdict("ok", 0, 0), verdict("cannot_sell", 0, null))).toBe(true)
    expect(worsened(verdict("ok", 0, 0), verdict("taxed", 0, 300))).toBe(true)
    expect(worsened(verdict("taxed", 0, 300), verdict("taxed", 0, 900))).toBe(true)
    expect(worsened(verdict("taxed", 0, 300), verdict("taxed", 0, 305))).toBe(false)
    expect(worsened(verdict("taxed", 0, 300), verdict("ok", 0, 0))).toBe(false)
    expect(worsened(verdict("size_limited", 0, 0), verdict("size_limited", 0, 0))).toBe(false)
  })
})

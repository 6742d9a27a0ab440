/**
 * The pure parts of the owner-power scan (src/safety/powers/): the dispatcher's selectors read from
 * compiled code, and the judgement of observations (an effect counts only when a stranger's same call
 * lacks it); and what counts as a verdict that got worse at swap time.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { type Hex, toFunctionSelector } from "viem"
import type { SafetyVerdict } from "../../schema/Token.js"
import { dispatchedSelectors } from "../../src/safety/powers/Dispatch.js"
import { judge } from "../../src/safety/powers/Judge.js"
import type { Observed, Seen } from "../../src/safety/powers/Probe.js"
import { worsened } from "../../src/swap/Rejudge.js"

const runtimeCode = (name: string) =>
  (JSON.parse(readFileSync(`build/contracts/${name}.json`, "utf8")) as { deployedBytecode: Hex }).deployedBytecode

describe("the dispatcher's functions", () => {
  it("finds a selector compared and jumped on, not one pushed as a constant", () => {
    // PUSH4 a DUP2 EQ PUSH2 JUMPI: dispatched; PUSH4 b PUSH1 MSTORE: a constant; PUSH32 holding a PUSH4.
    const code = `0x63f9f92be48114610040576363aabbccdd60005260${"7f63aabbccdd" + "00".repeat(27)}` as Hex
    expect(dispatchedSelectors(code)).toEqual(["0xf9f92be4"])
  })

  it("reads every external function of a compiled token, however it is named", () => {
    const found = dispatchedSelectors(runtimeCode("QuietListToken"))
    for (const signature of ["zx(address,bool)", "transfer(address,uint256)", "setPool(address,bool)"]) {
      expect(found).toContain(toFunctionSelector(`function ${signature}`))
    }
  })
})

const sell = (sent: bigint, received: bigint, ok = true) => ({ ok, sent, received })
const seen = (over: Partial<Seen> = {}): Seen => ({
  readOnly: false,
  ok: true,
  supplyBefore: 1_000n,
  supplyAfter: 1_000n,
  before: [100n, 500n],
  afterwards: [100n, 500n],
  some: sell(1n, 1n),
  all: sell(100n, 100n),
  ...over
})
const STRANGER = "0x00000000000000000000000000000000000000aa"
const OWNER = "0x00000000000000000000000000000000000000bb"
const trial = (caller: string, selector: Hex, over: Partial<Seen>): Observed => ({
  trial: { selector, shape: "(1)", caller: caller as Hex },
  seen: seen(over)
})
const baseline: Observed = { trial: { selector: "0x", shape: "", caller: STRANGER }, seen: seen() }

describe("judging what the simulation saw", () => {
  it("a mint by the owner that a stranger cannot make is a power; the same mint open to all is not", () => {
    const minted = { supplyAfter: 2_000n }
    expect(
      judge([baseline, trial(OWNER, "0x00000001", minted), trial(STRANGER, "0x00000001", { ok: false })], STRANGER)
    )
      .toMatchObject([{ flag: "owner_can_mint", selector: "0x00000001", caller: OWNER }])
    expect(judge([baseline, trial(OWNER, "0x00000001", minted), trial(STRANGER, "0x00000001", minted)], STRANGER))
      .toEqual([])
  })

  it("sells that revert, a capped sell, a tax short of and past half of the sale", () => {
    const judged = (over: Partial<Seen>) =>
      judge([baseline, trial(OWNER, "0x00000002", over), trial(STRANGER, "0x00000002", { ok: false })], STRANGER)
        .map((p) => p.flag)
    expect(judged({ some: sell(1n, 0n, false) })).toEqual(["owner_can_stop_sells"])
    expect(judged({ all: sell(100n, 0n, false) })).toEqual(["owner_can_stop_sells"])
    expect(judged({ some: sell(100n, 90n) })).toEqual(["owner_can_set_tax"])
    expect(judged({ some: sell(100n, 0n) })).toEqual(["owner_can_stop_sells"])
    expect(judged({ readOnly: true, some: sell(1n, 0n, false) })).toEqual([])
  })

  it("a holder's balance falling without its call is a move; a trial whose stranger twin did not run proves nothing", () => {
    const moved = { afterwards: [0n, 500n] }
    expect(judge([baseline, trial(OWNER, "0x00000003", moved), trial(STRANGER, "0x00000003", { ok: false })], STRANGER))
      .toMatchObject([{ flag: "owner_can_move_balances" }])
    expect(judge([baseline, trial(OWNER, "0x00000003", moved)], STRANGER)).toEqual([])
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

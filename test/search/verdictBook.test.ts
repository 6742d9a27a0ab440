/**
 * The pure parts of search verdicts: how the book merges the scan's and quotes' verdicts (never an
 * older block over a newer one), what a search answer shows of them (nothing measured after the
 * answer's block; tax flags only from a measured tax), and the scan's newest-first bounded list.
 */
import { describe, expect, it } from "@effect/vitest"
import type { SafetyVerdict } from "../../schema/Token.js"
import { makePending, Urgency } from "../../src/safety/Pending.js"
import { searchSafety } from "../../src/safety/SearchVerdict.js"
import { withQuote, withScan } from "../../src/safety/VerdictBook.js"

const verdict = (routeId: string, block: number, fields: Partial<SafetyVerdict> = {}): SafetyVerdict => ({
  routeId,
  route: { venue: "uniswap-v2", poolId: routeId, pair: "T/USDC" },
  verdict: "ok",
  canSell: true,
  buyTaxBps: 0,
  sellTaxBps: 0,
  buyImpactBps: 3,
  roundTripLossBps: 60,
  scope: { block, walletProfile: "fresh_eoa" },
  ...fields
})

describe("the verdict book", () => {
  it("a scan replaces the routes, best first, but keeps a later verdict of a route", () => {
    const quoted = withQuote(undefined, verdict("b", 20))
    expect(quoted.best).toBe("b")
    const scanned = withScan(quoted, [verdict("a", 10), verdict("b", 10), verdict("c", 10)])
    expect(scanned.best).toBe("a")
    expect(scanned.routes.map((r) => [r.routeId, r.scope.block])).toEqual([["a", 10], ["b", 20], ["c", 10]])
  })

  it("a quote joins the routes without taking the best place, and never replaces a later verdict", () => {
    const scanned = withScan(undefined, [verdict("a", 10)])
    const quoted = withQuote(scanned, verdict("z", 12))
    expect(quoted.best).toBe("a")
    expect(quoted.routes.map((r) => r.routeId)).toEqual(["a", "z"])
    expect(withQuote(quoted, verdict("a", 5)).routes[0]!.scope.block).toBe(10)
    expect(withQuote(quoted, verdict("a", 11)).routes[0]!.scope.block).toBe(11)
  })
})

describe("verdicts in a search answer", () => {
  it("unmeasured: null, no routes, no flags", () => {
    expect(searchSafety(undefined, 100)).toEqual({ safety: null, safetyByRoute: [], flags: [] })
  })

  it("shows the best route, every route with its checkedBlock, and the measured tax flags", () => {
    const book = withScan(undefined, [
      verdict("a", 10, { verdict: "taxed", buyTaxBps: 300, sellTaxBps: 0 }),
      verdict("b", 9)
    ])
    const shown = searchSafety(book, 10)
    expect(shown.safety?.routeId).toBe("a")
    expect(shown.safetyByRoute.map((r) => [r.routeId, r.checkedBlock, r.verdict])).toEqual([
      ["a", 10, "taxed"],
      ["b", 9, "ok"]
    ])
    expect(shown.flags).toEqual(["buy_tax"])
  })

  it("never shows a verdict measured after the answer's block", () => {
    const book = withScan(undefined, [verdict("a", 12), verdict("b", 9)])
    const shown = searchSafety(book, 10)
    expect(shown.safety).toBeNull()
    expect(shown.safetyByRoute.map((r) => r.routeId)).toEqual(["b"])
    expect(searchSafety(book, 8)).toEqual({ safety: null, safetyByRoute: [], flags: [] })
  })

  it("the shown verdict's owner flags join the result's flags, after the tax flags", () => {
    const book = withScan(undefined, [
      verdict("a", 10, {
        verdict: "taxed",
        buyTaxBps: 0,
        sellTaxBps: 200,
        flags: ["upgradeable", "owner_can_set_tax"]
      }),
      verdict("b", 10, { flags: ["owner_can_stop_sells"] })
    ])
    expect(searchSafety(book, 10).flags).toEqual(["sell_tax", "upgradeable", "owner_can_set_tax"])
  })

  it("a cannot_sell verdict without a measured sell tax sets no sell_tax flag", () => {
    const book = withScan(undefined, [verdict("a", 10, { verdict: "cannot_sell", canSell: false, sellTaxBps: null })])
    expect(searchSafety(book, 10).flags).toEqual([])
  })
})

describe("the scan's waiting list", () => {
  it("asked first (newest ask first), then never measured, then re-measurements; each by liquidity", () => {
    const pending = makePending<string>(10)
    pending.push("shallow", Urgency.remeasure, 10n)
    pending.push("deep", Urgency.remeasure, 1_000n)
    pending.push("newShallow", Urgency.fresh, 5n)
    pending.push("newDeep", Urgency.fresh, 500n)
    pending.push("askedFirst", Urgency.asked, 1n)
    pending.push("askedLast", Urgency.asked, 0n)
    pending.push("deep", Urgency.remeasure, 1_000n) // once, however often pushed
    expect(pending.size()).toBe(6)
    expect(Array.from({ length: 7 }, () => pending.pop())).toEqual([
      "askedLast",
      "askedFirst",
      "newDeep",
      "newShallow",
      "deep",
      "shallow",
      undefined
    ])
  })

  it("a token pushed again keeps its higher urgency; ties go newest first", () => {
    const pending = makePending<string>(10)
    pending.push("a", Urgency.asked)
    pending.push("a", Urgency.remeasure, 7n)
    pending.push("b", Urgency.fresh)
    pending.push("c", Urgency.fresh)
    expect([pending.pop(), pending.pop(), pending.pop()]).toEqual(["a", "c", "b"])
  })

  it("past the capacity the least urgent, least liquid token is dropped", () => {
    const pending = makePending<string>(3)
    pending.push("remeasureDeep", Urgency.remeasure, 100n)
    pending.push("remeasureShallow", Urgency.remeasure, 1n)
    pending.push("fresh", Urgency.fresh, 0n)
    pending.push("asked", Urgency.asked) // over capacity: "remeasureShallow" goes
    expect([pending.pop(), pending.pop(), pending.pop(), pending.pop()]).toEqual([
      "asked",
      "fresh",
      "remeasureDeep",
      undefined
    ])
  })
})

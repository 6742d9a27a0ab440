/**
 * Where the quote gets its sell-back verdict. The measurement itself (a simulated buy and sell-back
 * from a fresh wallet through the router, `SafetyCheck` in src/quote/safety/) is built on its own
 * branch; until it is merged no verdict is measured, and the quote says so (`safety: null`, warning
 * `safety_not_measured`) rather than guess one.
 *
 * The interface the quote expects: for the traded token, the USDC→token path of the chosen plan, the
 * order's size in USDC base units and the quote's block, a Safety verdict measured at that block.
 */
import { Effect } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { SafetyVerdict as Verdict } from "../../schema/Token.js"

type SafetyVerdict = typeof Verdict.Type
import type { Path } from "../routing/Path.js"

export interface SafetyQuestion {
  readonly token: Hex
  readonly path: Path
  readonly sizeUsdc: bigint
  readonly block: number
}

export const measureSafety = (_question: SafetyQuestion): Effect.Effect<SafetyVerdict | null> => Effect.succeed(null)

/** Verdicts that make a quote `next: stop`. */
export const stopsTrade = (verdict: SafetyVerdict | null): boolean =>
  verdict !== null && (verdict.verdict === "cannot_sell" || verdict.verdict === "illiquid")

/**
 * A token's verdicts as a search answer shows them: only measurements at or before the answer's block
 * (a verdict measured after the snapshot the answer describes would claim a block it does not show),
 * the best route's verdict as `safety`, every route with its `checkedBlock`, and the flags.
 *
 * `buy_tax` / `sell_tax`: the shown verdict measured a tax above 0 bp on that side. Nothing else sets
 * them: a token never measured has neither, however its contract looks. The owner flags are the shown
 * verdict's own (read from the chain when it was measured).
 */
import type { RouteSafety, SafetyVerdict, TokenFlag } from "../../schema/Token.js"
import type { TokenVerdicts } from "./VerdictBook.js"

export interface SearchSafety {
  readonly safety: SafetyVerdict | null
  readonly safetyByRoute: ReadonlyArray<typeof RouteSafety.Type>
  readonly flags: ReadonlyArray<TokenFlag>
}

const unmeasured: SearchSafety = { safety: null, safetyByRoute: [], flags: [] }

export const searchSafety = (verdicts: TokenVerdicts | undefined, block: number): SearchSafety => {
  if (verdicts === undefined) return unmeasured
  const shown = verdicts.routes.filter((route) => route.scope.block <= block)
  if (shown.length === 0) return unmeasured
  const safety = shown.find((route) => route.routeId === verdicts.best) ?? null
  const flags: Array<TokenFlag> = []
  if ((safety?.buyTaxBps ?? 0) > 0) flags.push("buy_tax")
  if ((safety?.sellTaxBps ?? 0) > 0) flags.push("sell_tax")
  flags.push(...(safety?.flags ?? []))
  return {
    safety,
    safetyByRoute: shown.map((route) => ({
      routeId: route.routeId,
      route: route.route,
      verdict: route.verdict,
      buyTaxBps: route.buyTaxBps,
      sellTaxBps: route.sellTaxBps,
      checkedBlock: route.scope.block
    })),
    flags
  }
}

/**
 * Hubs an exact-output chain cannot pass through. Such a chain sends each middle token straight from its
 * pool to the pool above, which receives it short of a transfer tax and refuses (docs/router.md, "Where
 * exactness ends"): no price makes it fill, so the quote must not offer it.
 *
 * A hub counts as taxed when every route the verdict book holds for it, as a token of its own, measured
 * a tax on either side: a token that taxes only some pools still passes through the others. A hub the
 * book has no verdict for is measured once, at the quote's snapshot, like the scan would (the verdict is
 * written to the book, so the next quote and `search` read it); one that cannot be measured (no exactly
 * priced route to USDC, a pinned asset, a node that does not answer) stays offered.
 */
import { Effect } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { SafetyVerdict } from "../../schema/Token.js"
import type { IndexSnapshot } from "../indexer/ChainIndex.js"
import { TokenMeasure } from "../safety/MeasureToken.js"
import { VerdictBook } from "../safety/VerdictBook.js"

const taxes = (verdict: SafetyVerdict) => (verdict.buyTaxBps ?? 0) > 0 || (verdict.sellTaxBps ?? 0) > 0

const everyTaxed = (routes: ReadonlyArray<SafetyVerdict>) => routes.length > 0 && routes.every(taxes)

export class TaxedHubs extends Effect.Service<TaxedHubs>()("TaxedHubs", {
  effect: Effect.gen(function*() {
    const book = yield* VerdictBook
    const measure = yield* TokenMeasure

    const taxed = Effect.fnUntraced(function*(hub: Hex, snapshot: IndexSnapshot) {
      const known = yield* book.get(hub)
      if (known !== undefined) return everyTaxed(known.routes)
      if (measure.skipped(hub)) return false
      const measured = yield* measure.measure(hub, snapshot)
      if (measured._tag !== "Measured") return false
      yield* book.scanned(hub, measured.verdicts, snapshot.epoch)
      return everyTaxed(measured.verdicts)
    })

    return {
      /** Which of `hubs` tax their transfers, as measured at or before `snapshot`. */
      among: Effect.fn("TaxedHubs.among")(function*(hubs: Iterable<Hex>, snapshot: IndexSnapshot) {
        const found = new Set<Hex>()
        for (const hub of hubs) if (yield* taxed(hub, snapshot)) found.add(hub)
        return found
      })
    }
  })
}) {}

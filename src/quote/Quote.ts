/**
 * `quote`: the best plan for a trade across every venue, priced from the in-memory index at one block,
 * with every candidate route, the sell-back verdict, the taker's readiness when a taker is sent, and a
 * plain `next`. The quote is stored (QuoteStore) with everything `swap` needs.
 *
 * Reads the chain for the head at arrival, the swaps of hooked pools (./HookedPools.ts), the
 * sell-back verdict's simulations (once per pair, size and block) and, with a taker, readiness (one
 * batched round trip); the gas price is read once per block as the index publishes it (./GasPrice.ts).
 *
 * A pipeline of steps (./steps/) over one record, each adding what it decides to what the steps before
 * it found, each its own span, on the index view at the chain's head as of the request's arrival
 * (`TokenSearch.view`). The steps up to readiness only read; only a quote that stands is recorded.
 */
import { Effect } from "effect"
import type { QuoteRequest } from "../../schema/QuoteRequest.js"
import { TokenSearch } from "../search/TokenSearch.js"
import type { SearchView } from "../search/View.js"
import { judge } from "./steps/Judge.js"
import { checkReady } from "./steps/Ready.js"
import { record } from "./steps/Record.js"
import { present } from "./steps/Response.js"
import { route } from "./steps/Route.js"
import { resolveSides } from "./steps/Sides.js"
import { terms } from "./steps/Terms.js"

/** The quote as offered on `view`, before anything is stored. */
const offer = (request: QuoteRequest, view: SearchView) =>
  resolveSides(request, view).pipe(
    Effect.flatMap(route),
    Effect.flatMap(judge),
    Effect.flatMap(terms),
    Effect.flatMap(checkReady)
  )

export const quote = Effect.fn("Quote.run")(function*(request: QuoteRequest) {
  const ready = yield* offer(request, yield* (yield* TokenSearch).view)
  return present(yield* record(ready))
})

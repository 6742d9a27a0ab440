/**
 * `quote`: the best plan for a trade across every venue, priced from the in-memory index at one block,
 * with every candidate route, the sell-back verdict, the taker's readiness when a taker is sent, and a
 * plain `next`. The quote is stored (QuoteStore) with everything `swap` needs.
 *
 * Reads the chain only for the gas price (once per block, src/quote/GasPrice.ts) and, with a taker,
 * for readiness (one batched round trip).
 *
 * A pipeline of steps (./steps/) over one record, each adding what it decides to what the steps before
 * it found, each its own span.
 */
import { Effect } from "effect"
import type { QuoteRequest } from "../../schema/QuoteRequest.js"
import { judge } from "./steps/Judge.js"
import { checkReady } from "./steps/Ready.js"
import { record } from "./steps/Record.js"
import { present } from "./steps/Response.js"
import { route } from "./steps/Route.js"
import { resolveSides } from "./steps/Sides.js"
import { terms } from "./steps/Terms.js"

export const quote = Effect.fn("Quote.run")(function*(request: QuoteRequest) {
  const sides = yield* resolveSides(request)
  const routed = yield* route(sides)
  const judged = yield* judge(routed)
  const offered = yield* terms(judged)
  const ready = yield* checkReady(offered)
  return present(yield* record(ready))
})

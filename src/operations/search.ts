/**
 * `search`: a token by ticker, name, prefix or address, most relevant first, from the in-memory index at
 * the chain's head as of the request's arrival (or 503 `rpc_unavailable`, never a stale list), with the
 * verdicts of the book (filled off the request path by the background safety scan) that still stand at
 * that block (src/safety/Standing.ts).
 */
import { Effect, HashMap, Option } from "effect"
import { TokenNotFound } from "../../schema/Errors.js"
import type { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { standingAt } from "../safety/Standing.js"
import { VerdictBook } from "../safety/VerdictBook.js"
import { present } from "../search/Present.js"
import { runQuery } from "../search/Query.js"
import { RULES_VERSION } from "../search/Rules.js"
import { TokenSearch } from "../search/TokenSearch.js"

export const search = Effect.fn("Search.run")(function*(request: SearchRequest) {
  const tokens = yield* TokenSearch
  const view = yield* tokens.view
  const { snapshot } = view
  // One read of the book; the scan and quotes fill it off the request path.
  const book = yield* VerdictBook
  const verdicts = yield* book.all
  const outcome = runQuery(view, request.query, request.limit)
  if (outcome === undefined) {
    return yield* new TokenNotFound({
      message: `no token matches "${request.query}"`,
      hint: "search by ticker, name, the start of either, or the token's 0x address"
    })
  }
  const shown = outcome.ranked.slice(0, request.limit)
  const standings = yield* Effect.forEach(shown, ({ assessment }) => {
    const token = assessment.token.address
    return standingAt(token, Option.getOrUndefined(HashMap.get(verdicts, token)), snapshot.state)
  })
  // Results shown without a verdict (none measured, or none that still stands): the scan measures them
  // next, so the agent's next look has them.
  const unjudged = shown.flatMap(({ assessment }, i) => standings[i] === undefined ? [assessment.token.address] : [])
  if (unjudged.length > 0) yield* book.asked(unjudged)
  const response: SearchResponse = {
    query: request.query,
    network: tokens.network,
    block: snapshot.state.block,
    resolution: outcome.resolution,
    rulesVersion: RULES_VERSION,
    results: shown.map(({ assessment, match }, i) => present(view, assessment, match, standings[i]))
  }
  return response
})

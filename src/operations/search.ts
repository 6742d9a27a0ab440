/**
 * `search`: a token by ticker, name, prefix or address, most relevant first. A pure request → response
 * program over the in-memory index and the verdict book (filled off the request path by the background
 * safety scan): no chain access, so a payment gate can wrap it as it is. An index
 * that is not current (health `down`: the chain stopped answering, or catching up) answers 503
 * `rpc_unavailable` rather than a stale list.
 */
import { Effect, HashMap, Option } from "effect"
import { TokenNotFound } from "../../schema/Errors.js"
import type { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { VerdictBook } from "../safety/VerdictBook.js"
import { present } from "../search/Present.js"
import { runQuery } from "../search/Query.js"
import { RULES_VERSION } from "../search/Rules.js"
import { TokenSearch } from "../search/TokenSearch.js"

export const search = Effect.fn("search")(function*(request: SearchRequest) {
  const tokens = yield* TokenSearch
  const view = yield* tokens.view
  const { snapshot } = view
  // One read of the book; the scan and quotes fill it off the request path.
  const verdicts = yield* (yield* VerdictBook).all
  const outcome = runQuery(view, request.query, request.limit)
  if (outcome === undefined) {
    return yield* new TokenNotFound({
      message: `no token matches "${request.query}"`,
      hint: "search by ticker, name, the start of either, or the token's 0x address"
    })
  }
  const response: SearchResponse = {
    query: request.query,
    network: tokens.network,
    block: snapshot.state.block,
    resolution: outcome.resolution,
    rulesVersion: RULES_VERSION,
    results: outcome.ranked.slice(0, request.limit).map(({ assessment, match }) =>
      present(view, assessment, match, Option.getOrUndefined(HashMap.get(verdicts, assessment.token.address)))
    )
  }
  return response
})

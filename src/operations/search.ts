/**
 * `search`: a token by ticker, name, prefix or address, most relevant first. A pure request → response
 * program over the in-memory index: no chain access, so a payment gate can wrap it as it is.
 */
import { Effect } from "effect"
import { RpcUnavailable, TokenNotFound } from "../../schema/Errors.js"
import type { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { present } from "../search/Present.js"
import { runQuery } from "../search/Query.js"
import { RULES_VERSION } from "../search/Rules.js"
import { TokenSearch } from "../search/TokenSearch.js"

export const search = Effect.fn("search")(function*(request: SearchRequest) {
  const tokens = yield* TokenSearch
  const view = yield* tokens.view
  const { snapshot } = view
  if (snapshot.catchingUp) {
    return yield* new RpcUnavailable({
      message: "the token index is catching up with the chain",
      hint: `indexed block ${snapshot.state.block} of ${snapshot.head}`
    })
  }
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
    results: outcome.ranked.slice(0, request.limit).map(({ assessment, match }) => present(view, assessment, match))
  }
  return response
})

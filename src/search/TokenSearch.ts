/**
 * The search side of the index: for the snapshot at the chain's head as of the request's arrival
 * (`AtHead`), a `SearchView` (catalog, valuation, verification). Views are built by a fiber that follows
 * the index, so a query normally finds its view ready and only matches, ranks and formats.
 */
import { Clock, Effect, Ref, Stream } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { AtHead } from "../indexer/AtHead.js"
import { ChainIndex, type IndexSnapshot } from "../indexer/ChainIndex.js"
import { bookOf } from "./Verification.js"
import { makeView, type SearchView, viewBasis } from "./View.js"

export class TokenSearch extends Effect.Service<TokenSearch>()("TokenSearch", {
  scoped: Effect.gen(function*() {
    const index = yield* ChainIndex
    const atHead = yield* AtHead
    const deployment = yield* Deployment
    const config = yield* AppConfig
    const listUrl = AppConfig.tokenListUrl(config)
    const checkedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    const book = bookOf(deployment.tokenList, deployment.chainId, listUrl, checkedAt)
    const basis = viewBasis(book, usdcOf(deployment))
    const latest = yield* Ref.make<SearchView | undefined>(undefined)

    const viewOf = (snapshot: IndexSnapshot) =>
      Ref.modify(latest, (previous): readonly [SearchView, SearchView | undefined] => {
        if (previous?.snapshot === snapshot) return [previous, previous]
        const view = makeView(snapshot, basis, previous)
        return [view, view]
      })

    // Off the request path: a view for every snapshot at the head it was published with. One behind it
    // (the last piece of a catch-up, before the reorg window's blocks are followed) answers no request
    // that knows that head, and its view would be a catalog of every token built for nothing.
    yield* index.changes.pipe(
      Stream.filter((snapshot) => !snapshot.catchingUp && snapshot.state.block >= snapshot.head),
      Stream.runForEach(viewOf),
      Effect.forkScoped
    )

    return {
      network: `eip155:${deployment.chainId}`,
      /** The view at the chain's head as of now (or `rpc_unavailable`): every answer starts here. */
      view: Effect.flatMap(atHead.snapshot, viewOf)
    }
  })
}) {}

/**
 * The index as the service runs it, one layer: `ChainIndex` (the snapshots), `Indexer` (the stream
 * that keeps them current, with its checkpoint) and `TokenSearch` (the search views).
 * Needs `ChainRpc`, `Deployment`, `Venues`, `AppConfig` and the platform's `FileSystem` and `Path`.
 */
import { Layer } from "effect"
import { TokenSearch } from "../search/TokenSearch.js"
import { ChainIndex } from "./ChainIndex.js"
import { Indexer } from "./Indexer.js"

export const IndexLive = Layer.mergeAll(Indexer.Default, TokenSearch.Default).pipe(
  Layer.provideMerge(ChainIndex.Default)
)

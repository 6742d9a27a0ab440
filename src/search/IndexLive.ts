/**
 * The index as the service runs it, one layer: `ChainHead` (the chain's head, pushed, polled or read
 * on arrival), `ChainIndex` (the snapshots), `Indexer` (the stream that keeps them current, with its
 * checkpoint), `AtHead` (the snapshot an answer is computed from) and `TokenSearch` (the search views).
 * Needs `ChainRpc`, `Deployment`, `Venues`, `AppConfig` and the platform's `FileSystem` and `Path`.
 */
import { Layer } from "effect"
import { AtHead } from "../indexer/AtHead.js"
import { ChainHead } from "../indexer/ChainHead.js"
import { ChainIndex } from "../indexer/ChainIndex.js"
import { Indexer } from "../indexer/Indexer.js"
import { TokenSearch } from "./TokenSearch.js"

export const IndexLive = TokenSearch.Default.pipe(
  Layer.provideMerge(AtHead.Default),
  Layer.provideMerge(Indexer.Default),
  Layer.provideMerge(Layer.merge(ChainIndex.Default, ChainHead.Default))
)

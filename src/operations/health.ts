/**
 * `health`: whether the service can answer from a current view of the chain.
 */
import { Clock, Effect, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import type { HealthResponse } from "../../schema/Health.js"
import { SERVICE_VERSION } from "../../schema/Service.js"
import { Indexer } from "../indexer/Indexer.js"
import { RULES_VERSION } from "../search/Rules.js"
import { StartTime } from "./StartTime.js"

/** Lag beyond which answers are too old to trust for pricing: 5 s of Arc's half-second blocks. */
export const MAX_HEALTHY_LAG_BLOCKS = 10

export const health = Effect.fn("health")(function*() {
  const config = yield* AppConfig
  const rpc = yield* ChainRpc
  const indexer = yield* Indexer
  const started = yield* StartTime
  const before = yield* Clock.currentTimeMillis
  const block = yield* rpc.use("getBlockNumber", (client) => client.getBlockNumber({ cacheTime: 0 })).pipe(
    Effect.timeout("2 seconds"),
    Effect.option
  )
  const after = yield* Clock.currentTimeMillis
  const progress = yield* indexer.progress
  const reachable = Option.isSome(block)
  const lagging = progress.catchingUp || progress.lag === null || progress.lag > MAX_HEALTHY_LAG_BLOCKS
  const answer: HealthResponse = {
    status: !reachable ? "down" : lagging ? "degraded" : "ok",
    chainId: config.chainId,
    network: `eip155:${config.chainId}`,
    headBlock: progress.head,
    // Before its first block the index sits one block before the start block, which may be -1.
    indexedBlock: progress.indexed < 0 ? null : progress.indexed,
    indexLagBlocks: progress.lag,
    catchingUp: progress.catchingUp,
    logsPerSec: progress.logsPerSec,
    rpc: {
      reachable,
      latencyMs: reachable ? after - before : null,
      block: Option.match(block, { onNone: () => null, onSome: Number })
    },
    version: SERVICE_VERSION,
    rulesVersion: RULES_VERSION,
    uptimeSec: Math.floor((after - started.millis) / 1000)
  }
  return answer
})

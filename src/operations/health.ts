/**
 * `health`: whether the service can answer from a current view of the chain.
 */
import { Clock, Effect, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import type { HealthResponse } from "../../schema/Health.js"

const startedAt = Date.now()

export const health = Effect.fn("health")(function*() {
  const config = yield* AppConfig
  const rpc = yield* ChainRpc
  const before = yield* Clock.currentTimeMillis
  const block = yield* rpc.use("getBlockNumber", (client) => client.getBlockNumber({ cacheTime: 0 })).pipe(
    Effect.timeout("2 seconds"),
    Effect.option
  )
  const after = yield* Clock.currentTimeMillis
  const reachable = Option.isSome(block)
  const answer: HealthResponse = {
    status: reachable ? "ok" : "down",
    chainId: config.chainId,
    network: `eip155:${config.chainId}`,
    headBlock: null,
    indexedBlock: null,
    indexLagBlocks: null,
    catchingUp: false,
    logsPerSec: 0,
    rpc: {
      reachable,
      latencyMs: reachable ? after - before : null,
      block: Option.match(block, { onNone: () => null, onSome: Number })
    },
    version: config.version,
    rulesVersion: "",
    uptimeSec: Math.floor((after - startedAt) / 1000)
  }
  return answer
})

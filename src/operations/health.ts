/**
 * `health`: whether the service can answer from a current view of the chain (see
 * `src/indexer/Freshness.ts` for `ok` / `degraded` / `down`). It reads the indexer's progress and its
 * head poll, which doubles as the RPC probe: a health check costs no chain call, however often it is
 * asked.
 */
import { Clock, Effect } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import type { HealthResponse } from "../../schema/Health.js"
import { SERVICE_VERSION } from "../../schema/Service.js"
import { currentFreshness } from "../indexer/Freshness.js"
import { RULES_VERSION } from "../search/Rules.js"
import { StartTime } from "./StartTime.js"

export { MAX_HEALTHY_LAG_BLOCKS } from "../indexer/Freshness.js"

export const health = Effect.fn("health")(function*() {
  const config = yield* AppConfig
  const { freshness, maxAgeSec, progress } = yield* currentFreshness
  const probe = progress.probe
  const started = yield* StartTime
  const now = yield* Clock.currentTimeMillis
  // A probe older than the age bound says nothing about now.
  const reachable = probe !== null && probe.ok && now - probe.at <= maxAgeSec * 1000
  const answer: HealthResponse = {
    status: freshness.status,
    reason: freshness.reason,
    chainId: config.chainId,
    network: `eip155:${config.chainId}`,
    headBlock: progress.head,
    // Before its first block the index sits one block before the start block, which may be -1.
    indexedBlock: progress.indexed < 0 ? null : progress.indexed,
    indexLagBlocks: progress.lag,
    indexAgeSec: freshness.indexAgeSec,
    catchingUp: progress.catchingUp,
    logsPerSec: progress.logsPerSec,
    rpc: {
      reachable,
      latencyMs: reachable ? probe.latencyMs : null,
      block: probe?.block ?? null,
      probedAgoSec: probe === null ? null : Math.round((now - probe.at) / 100) / 10
    },
    version: SERVICE_VERSION,
    rulesVersion: RULES_VERSION,
    uptimeSec: Math.floor((now - started.millis) / 1000)
  }
  return answer
})

/** A `down` report is served with the `rpc_unavailable` envelope and 503: a supervisor reads the status. */
export const healthRefusal = (report: HealthResponse): RpcUnavailable | undefined =>
  report.status === "down"
    ? new RpcUnavailable({
      message: "the service cannot answer from a current view of the chain",
      hint: report.reason ?? "the index is not current"
    })
    : undefined

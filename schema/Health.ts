/**
 * `GET /health`: is the service able to answer from a current view of the chain.
 */
import { Schema } from "effect"
import { Network } from "./Primitives.js"

export const HealthStatus = Schema.Literal("ok", "degraded", "down").annotations({
  description:
    "`ok`: RPC reachable and index within the lag budget; `degraded`: catching up or lagging; `down`: RPC unreachable"
})

export const HealthResponse = Schema.Struct({
  status: HealthStatus,
  chainId: Schema.Int,
  network: Network,
  headBlock: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "latest block the indexer saw" }),
  indexedBlock: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "latest block applied to the index" }),
  indexLagBlocks: Schema.NullOr(Schema.NonNegativeInt),
  catchingUp: Schema.Boolean,
  logsPerSec: Schema.Number.annotations({ description: "log throughput of the indexer over its last batches" }),
  rpc: Schema.Struct({
    reachable: Schema.Boolean,
    latencyMs: Schema.NullOr(Schema.Number),
    block: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "block number the RPC answered now" })
  }),
  version: Schema.String,
  rulesVersion: Schema.String,
  uptimeSec: Schema.NonNegativeInt
}).annotations({ identifier: "HealthResponse" })
export type HealthResponse = typeof HealthResponse.Type

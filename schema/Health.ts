/**
 * `GET /health`: is the service able to answer from a current view of the chain. `down` answers 503
 * with the `rpc_unavailable` error envelope beside the report (`RpcUnavailable.report`), so a
 * supervisor reads the status code and a client reads `next` and `retryAfterSec` as on any other error.
 */
import { Schema } from "effect"
import { Network, RawAmount } from "./Primitives.js"

export const HealthStatus = Schema.Literal("ok", "degraded", "down").annotations({
  description: [
    "`ok` (200): the index reflected the chain head less than INDEX_MAX_AGE_SEC (5) s ago and trails the",
    "newest head by at most HEALTH_MAX_LAG_BLOCKS (10) blocks and HEALTH_MAX_LAG_MS (1000) ms;",
    "`degraded` (200): answering (each answer still waits for the head of its arrival), but the last RPC",
    "poll failed or the index trails the head past those bounds;",
    "`down` (503): no current answers: the index is older than the bound (chain unreachable), has not",
    "reached the head since start, or is catching up; operations then answer 503 `rpc_unavailable`"
  ].join(" ")
})

/** How many payers health names in `payments.payers`: the largest exposures, so the answer stays small. */
export const HEALTH_PAYERS = 10

export const HealthResponse = Schema.Struct({
  status: HealthStatus,
  reason: Schema.NullOr(Schema.String).annotations({ description: "why the status is not `ok`" }),
  chainId: Schema.Int,
  network: Network,
  headBlock: Schema.NullOr(Schema.NonNegativeInt).annotations({
    description: "the chain's head: the newest block pushed by the node (newHeads), polled, or read by an operation"
  }),
  headSource: Schema.NullOr(Schema.Literal("pushed", "polled", "asked")).annotations({
    description: "how the head was learned: pushed by the node, polled, or read when an operation arrived"
  }),
  indexedBlock: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "latest block applied to the index" }),
  indexLagBlocks: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "blocks the index trails the head" }),
  indexLagMs: Schema.NonNegativeInt.annotations({
    description: "how long the index has trailed the head: since the first head above the index was seen (0 when at it)"
  }),
  indexAgeSec: Schema.NullOr(Schema.NonNegative).annotations({
    description: "seconds since the index last reflected the chain head (null until it first has)"
  }),
  catchingUp: Schema.Boolean,
  logsPerSec: Schema.Number.annotations({ description: "log throughput of the indexer over its last batches" }),
  rpc: Schema.Struct({
    reachable: Schema.Boolean,
    latencyMs: Schema.NullOr(Schema.Number),
    block: Schema.NullOr(Schema.NonNegativeInt).annotations({ description: "head block of the last answered probe" }),
    probedAgoSec: Schema.NullOr(Schema.NonNegative).annotations({
      description: "age of the last probe: the head poll, so health itself never calls the chain"
    }),
    pollIntervalMs: Schema.NonNegativeInt.annotations({
      description: "the head poll's interval: INDEXER_POLL_MS, or half the block time observed"
    })
  }),
  payments: Schema.Struct({
    settlementMode: Schema.Literal("confirmed", "broadcast").annotations({
      description:
        "when a paid answer leaves: once its settlement is mined, or once the node has taken it (SETTLEMENT_MODE)"
    }),
    unconfirmed: Schema.Struct({ count: Schema.NonNegativeInt, value: RawAmount }).annotations({
      description:
        "paid calls admitted to be answered before their settlement is mined (broadcast only), capped by SETTLEMENT_UNCONFIRMED_CAP"
    }),
    debts: Schema.Struct({ count: Schema.NonNegativeInt, value: RawAmount }).annotations({
      description:
        "payers whose settlement failed after they were served, and what they owe; each is refused until it pays"
    }),
    payers: Schema.Array(
      Schema.Struct({ payer: Schema.String, count: Schema.NonNegativeInt, value: RawAmount })
    ).pipe(Schema.maxItems(HEALTH_PAYERS)).annotations({
      description: "the payers with the most value in `unconfirmed`, most first (at most 10), each capped by " +
        "SETTLEMENT_PAYER_CAP and covered by its balance at admission"
    })
  }),
  version: Schema.String,
  rulesVersion: Schema.String,
  uptimeSec: Schema.NonNegativeInt
}).annotations({ identifier: "HealthResponse" })
export type HealthResponse = typeof HealthResponse.Type

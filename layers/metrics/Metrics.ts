/**
 * The service's metrics, one definition each, recorded where the event happens (the operation
 * interpreter, the payment gate, the indexer, the safety check, the chain boundary) and read by
 * `GET /metrics` (./Exposition.ts). Recorded with `unsafeUpdate` from a sync step: a metric update on
 * every request is a map lookup and an add, not an effect of its own.
 */
import { Effect, Metric, MetricBoundaries, type MetricLabel } from "effect"
import * as Label from "effect/MetricLabel"

/** Every family's name starts so; `GET /metrics` serves these only. */
export const PREFIX = "checkpoint_"

// Seconds, 1 ms to ~33 s: a cached quote to a slow node's simulation.
const latency = MetricBoundaries.exponential({ start: 0.001, factor: 2, count: 16 })

export const requests = Metric.counter("checkpoint_requests_total", {
  description: "Calls answered, by operation and outcome",
  incremental: true
})
export const requestSeconds = Metric.histogram(
  "checkpoint_request_seconds",
  latency,
  "Time from a decoded call to its outcome, by operation and outcome"
)
export const inFlight = Metric.gauge("checkpoint_requests_in_flight", {
  description: "Calls being run by the operation interpreter"
})
export const payments = Metric.counter("checkpoint_payments_total", {
  description: "Paid calls by outcome (settled, unconfirmed, failed, refused) and refusal reason",
  incremental: true
})
export const paymentValue = Metric.counter("checkpoint_payment_value_usdc_base_units_total", {
  description: "USDC base units charged, by outcome (settled, unconfirmed)",
  bigint: true,
  incremental: true
})
export const indexHead = Metric.gauge("checkpoint_index_head_block", {
  description: "The chain head the indexer last saw"
})
export const indexBlock = Metric.gauge("checkpoint_index_block", { description: "The last block the index applied" })
export const indexLag = Metric.gauge("checkpoint_index_lag_blocks", { description: "Head minus indexed block" })
export const verdicts = Metric.counter("checkpoint_safety_verdicts_total", {
  description: "Safety verdicts measured (cache misses), by verdict",
  incremental: true
})
export const simulationSeconds = Metric.histogram(
  "checkpoint_safety_simulation_seconds",
  latency,
  "Time to measure one safety verdict (the simulated buy and sell-back)"
)
export const rpcCalls = Metric.counter("checkpoint_rpc_calls_total", {
  description: "JSON-RPC calls to the chain, by method",
  incremental: true
})
export const rpcErrors = Metric.counter("checkpoint_rpc_errors_total", {
  description: "JSON-RPC calls that failed, by method",
  incremental: true
})
export const rpcSeconds = Metric.histogram("checkpoint_rpc_seconds", latency, "JSON-RPC call latency, by method")

/** Labels as the registry keys them; built per call, they are small arrays. */
export const labels = (pairs: Readonly<Record<string, string>>): ReadonlyArray<MetricLabel.MetricLabel> =>
  Object.entries(pairs).map(([key, value]) => Label.make(key, value))

/** Seconds since `startMs` (performance.now), for the latency histograms. */
export const secondsSince = (startMs: number): number => (performance.now() - startMs) / 1000

/**
 * `call` timed into `histogram` and counted into `calls` (and `errors` when it fails), under `tags`.
 * Timed with `performance.now` rather than the Clock: tests move the Clock, and latency is wall time.
 */
export const timed = <A, E, R>(
  call: Effect.Effect<A, E, R>,
  tags: ReadonlyArray<MetricLabel.MetricLabel>,
  histogram: Metric.Metric.Histogram<number>,
  calls: Metric.Metric.Counter<number>,
  errors?: Metric.Metric.Counter<number>
): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.onExit(call, (exit) =>
      Effect.sync(() => {
        histogram.unsafeUpdate(secondsSince(start), tags)
        calls.unsafeUpdate(1, tags)
        if (exit._tag === "Failure") errors?.unsafeUpdate(1, tags)
      }))
  })

/** A safety measurement timed, and its verdict counted by kind. */
export const judged = <V extends { readonly verdict: string }, E, R>(
  measuring: Effect.Effect<V, E, R>
): Effect.Effect<V, E, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.tap(measuring, (judgement) =>
      Effect.sync(() => {
        simulationSeconds.unsafeUpdate(secondsSince(start), [])
        verdicts.unsafeUpdate(1, labels({ verdict: judgement.verdict }))
      }))
  })

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

/** Labels as the registry keys them. */
export const labels = (pairs: Readonly<Record<string, string>>): ReadonlyArray<MetricLabel.MetricLabel> =>
  Object.entries(pairs).map(([key, value]) => Label.make(key, value))

/**
 * `metric` under the labels `pairs`, tagged once per distinct set of values and kept: the registry hashes
 * a key's labels on every update given as extra tags (~9 µs a request here), a kept tagged metric once
 * (~0.15 µs). Label values are bounded sets (operations, outcomes, error tags, RPC methods, reasons).
 */
export const labelled = <T, In, Out>(metric: Metric.Metric<T, In, Out>) => {
  const made = new Map<string, Metric.Metric<T, In, Out>>()
  return (pairs: Readonly<Record<string, string>>): Metric.Metric<T, In, Out> => {
    const id = Object.values(pairs).join("\u0000")
    const known = made.get(id)
    if (known !== undefined) return known
    const tagged = Metric.taggedWithLabels(metric, labels(pairs))
    made.set(id, tagged)
    return tagged
  }
}

/** Seconds since `startMs` (performance.now), for the latency histograms. */
export const secondsSince = (startMs: number): number => (performance.now() - startMs) / 1000

const rpcCallsOf = labelled(rpcCalls)
const rpcErrorsOf = labelled(rpcErrors)
const rpcSecondsOf = labelled(rpcSeconds)

/**
 * One call to the node counted, timed and its failure counted, by `method` (or viem action). Timed with
 * `performance.now` rather than the Clock: tests move the Clock, and latency is wall time.
 */
export const rpcMetered = <A, E, R>(method: string, call: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.onExit(call, (exit) =>
      Effect.sync(() => {
        const tags = { method }
        rpcSecondsOf(tags).unsafeUpdate(secondsSince(start), [])
        rpcCallsOf(tags).unsafeUpdate(1, [])
        if (exit._tag === "Failure") rpcErrorsOf(tags).unsafeUpdate(1, [])
      }))
  })

const verdictsOf = labelled(verdicts)

/** A safety measurement timed, and its verdict counted by kind. */
export const judged = <V extends { readonly verdict: string }, E, R>(
  measuring: Effect.Effect<V, E, R>
): Effect.Effect<V, E, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.tap(measuring, (judgement) =>
      Effect.sync(() => {
        simulationSeconds.unsafeUpdate(secondsSince(start), [])
        verdictsOf({ verdict: judgement.verdict }).unsafeUpdate(1, [])
      }))
  })

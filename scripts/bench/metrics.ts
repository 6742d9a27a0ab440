/**
 * What the metrics add to one call, in-process: an operation's call with and without `measured`
 * (request count, latency histogram, in-flight gauge: what every HTTP and MCP call records) and one
 * JSON-RPC call with and without `rpcMetered` (count, latency, failure). Rounds alternate the two, so
 * each difference compares figures taken moments apart; it is to be read beside a warm quote's and a
 * health answer's own time (`npm run bench -- quote`, `npm run bench -- edge`), which the end-to-end
 * benches cannot resolve to a few percent on a busy machine.
 *
 * `METRICS_CALLS` (200000) calls per measurement, `METRICS_ROUNDS` (5).
 */
import { Effect, Option } from "effect"
import { rpcMetered } from "../../layers/metrics/Metrics.js"
import { measured } from "../../src/operations/Measured.js"
import { Outcome } from "../../src/operations/Outcome.js"
import { figure } from "./lib/report.js"

const CALLS = Number(process.env["METRICS_CALLS"] ?? 200_000)
const ROUNDS = Number(process.env["METRICS_ROUNDS"] ?? 5)

const answered = Outcome.Answered({ body: null, receipt: Option.none() })
const call = Effect.succeed(answered)
const rpcCall = Effect.succeed("0x1")

/** Nanoseconds per run of `effect`, `CALLS` runs in one fiber. */
const perCall = (effect: Effect.Effect<unknown>): number => {
  const loop = Effect.repeatN(effect, CALLS - 1)
  const started = performance.now()
  Effect.runSync(loop)
  return ((performance.now() - started) * 1e6) / CALLS
}

const pairs: Record<string, readonly [Effect.Effect<unknown>, Effect.Effect<unknown>]> = {
  "operation call": [call, measured("quote")(call)],
  "JSON-RPC call": [rpcCall, rpcMetered("eth_blockNumber", rpcCall)]
}

// JIT warm-up
for (const [bare, metered] of Object.values(pairs)) {
  perCall(bare)
  perCall(metered)
}
const added = new Map<string, Array<number>>()
for (let round = 1; round <= ROUNDS; round++) {
  for (const [label, [bare, metered]] of Object.entries(pairs)) {
    const without = perCall(bare)
    const withMetrics = perCall(metered)
    added.set(label, [...(added.get(label) ?? []), withMetrics - without])
    figure(`round ${round}, ${label}`, `${without.toFixed(0)} ns bare, ${withMetrics.toFixed(0)} ns metered`)
  }
}
for (const [label, values] of added) {
  const sorted = [...values].sort((a, b) => a - b)
  figure(
    `${label}: metrics add (median of ${ROUNDS})`,
    `${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(2)} µs`
  )
}

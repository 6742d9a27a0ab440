import { Effect, Metric, MetricBoundaries } from "effect"
import * as MetricKey from "effect/MetricKey"
import * as MetricLabel from "effect/MetricLabel"
import * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"
import { describe, expect, it } from "vitest"
import { exposition } from "../../layers/metrics/Exposition.js"

/** Sample lines by series (name and label set as written), values as numbers. */
const samples = (text: string) =>
  new Map(
    text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).map((line) => {
      const at = line.lastIndexOf(" ")
      return [line.slice(0, at), Number(line.slice(at + 1))] as const
    })
  )

describe("the exposition renderer", () => {
  it("writes counters, gauges and cumulative histograms with one HELP and TYPE per family", () => {
    const tags = [MetricLabel.make("operation", "quote"), MetricLabel.make("status", "answered")]
    const other = [MetricLabel.make("operation", "swap\"x\\y\n"), MetricLabel.make("status", "failed")]
    const boundaries = MetricBoundaries.fromIterable([0.1, 1])
    const text = exposition([
      MetricPair.unsafeMake(
        MetricKey.counter("t_requests_total", { description: "calls" }).pipe(MetricKey.taggedWithLabels(tags)),
        MetricState.counter(3)
      ),
      MetricPair.unsafeMake(MetricKey.gauge("t_lag", { description: "lag" }), MetricState.gauge(7)),
      MetricPair.unsafeMake(
        MetricKey.counter("t_requests_total", { description: "calls" }).pipe(MetricKey.taggedWithLabels(other)),
        MetricState.counter(1)
      ),
      MetricPair.unsafeMake(
        MetricKey.histogram("t_seconds", boundaries, "latency"),
        MetricState.histogram({ buckets: [[0.1, 1], [1, 3], [Infinity, 4]], count: 4, min: 0.05, max: 2, sum: 3.5 })
      ),
      MetricPair.unsafeMake(
        MetricKey.counter("t_value_total", { bigint: true }),
        MetricState.counter(12345678901234567890n)
      )
    ])
    const lines = text.split("\n")
    expect(lines.filter((line) => line === "# TYPE t_requests_total counter")).toHaveLength(1)
    expect(lines).toContain("# TYPE t_seconds histogram")
    expect(lines).toContain("# TYPE t_lag gauge")
    expect(lines).toContain("# HELP t_lag lag")
    // A family's series follow its TYPE line, before the next family's HELP.
    const typeAt = lines.indexOf("# TYPE t_requests_total counter")
    expect(lines[typeAt + 1]).toMatch(/^t_requests_total\{/)
    expect(lines[typeAt + 2]).toMatch(/^t_requests_total\{/)
    const values = samples(text)
    expect(values.get("t_requests_total{operation=\"quote\",status=\"answered\"}")).toBe(3)
    expect(values.get("t_requests_total{operation=\"swap\\\"x\\\\y\\n\",status=\"failed\"}")).toBe(1)
    expect(values.get("t_lag")).toBe(7)
    expect(values.get("t_seconds_bucket{le=\"0.1\"}")).toBe(1)
    expect(values.get("t_seconds_bucket{le=\"1\"}")).toBe(3)
    expect(values.get("t_seconds_bucket{le=\"+Inf\"}")).toBe(4)
    expect(values.get("t_seconds_sum")).toBe(3.5)
    expect(values.get("t_seconds_count")).toBe(4)
    expect(text).toContain("t_value_total 12345678901234567890\n")
    expect(text.endsWith("\n")).toBe(true)
  })

  it("renders a live registry's histogram as Effect keeps it", () => {
    const histogram = Metric.histogram("t_live_seconds", MetricBoundaries.fromIterable([1, 2]))
    histogram.unsafeUpdate(0.5, [])
    histogram.unsafeUpdate(1.5, [])
    histogram.unsafeUpdate(9, [])
    const pair = Effect.runSync(Metric.snapshot).find((pair) => pair.metricKey.name === "t_live_seconds")!
    const values = samples(exposition([pair]))
    expect(values.get("t_live_seconds_bucket{le=\"1\"}")).toBe(1)
    expect(values.get("t_live_seconds_bucket{le=\"2\"}")).toBe(2)
    expect(values.get("t_live_seconds_bucket{le=\"+Inf\"}")).toBe(3)
    expect(values.get("t_live_seconds_count")).toBe(3)
    expect(values.get("t_live_seconds_sum")).toBe(11)
  })
})

/**
 * The registry's snapshot in the Prometheus text exposition format (version 0.0.4): one `# HELP` and
 * `# TYPE` per family, its series together, histograms as cumulative `_bucket{le}` with `_sum` and
 * `_count`. Pure: `GET /metrics` renders `Metric.snapshot`, tests render pairs they made.
 */
import { Option } from "effect"
import type * as MetricLabel from "effect/MetricLabel"
import type * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

const sampleValue = (value: number | bigint): string =>
  typeof value === "bigint"
    ? value.toString()
    : Number.isNaN(value)
    ? "NaN"
    : value === Infinity
    ? "+Inf"
    : value === -Infinity
    ? "-Inf"
    : String(value)

const labelSet = (labels: ReadonlyArray<MetricLabel.MetricLabel>): string =>
  labels.length === 0 ? "" : `{${labels.map((label) => `${label.key}="${escapeLabel(label.value)}"`).join(",")}}`

const histogramLines = (
  name: string,
  labels: ReadonlyArray<MetricLabel.MetricLabel>,
  state: MetricState.MetricState.Histogram
) => {
  const lines = state.buckets.filter(([le]) => le !== Infinity).map(([le, count]) =>
    `${name}_bucket${labelSet([...labels, { key: "le", value: sampleValue(le) } as MetricLabel.MetricLabel])} ${count}`
  )
  lines.push(
    `${name}_bucket${labelSet([...labels, { key: "le", value: "+Inf" } as MetricLabel.MetricLabel])} ${state.count}`
  )
  lines.push(`${name}_sum${labelSet(labels)} ${sampleValue(state.sum)}`)
  lines.push(`${name}_count${labelSet(labels)} ${state.count}`)
  return lines
}

/** A series' type and sample lines; undefined for the kinds the service does not record (summary, frequency). */
const seriesOf = (pair: MetricPair.MetricPair.Untyped): { type: string; lines: Array<string> } | undefined => {
  const { name, tags } = pair.metricKey
  const state: unknown = pair.metricState
  if (MetricState.isCounterState(state)) {
    return { type: "counter", lines: [`${name}${labelSet(tags)} ${sampleValue(state.count)}`] }
  }
  if (MetricState.isGaugeState(state)) {
    return { type: "gauge", lines: [`${name}${labelSet(tags)} ${sampleValue(state.value)}`] }
  }
  if (MetricState.isHistogramState(state)) return { type: "histogram", lines: histogramLines(name, tags, state) }
  return undefined
}

export const exposition = (snapshot: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, { help: string; type: string; lines: Array<string> }>()
  for (const pair of snapshot) {
    const series = seriesOf(pair)
    if (series === undefined) continue
    const name = pair.metricKey.name
    const family = families.get(name) ??
      { help: Option.getOrElse(pair.metricKey.description, () => name), type: series.type, lines: [] }
    family.lines.push(...series.lines)
    families.set(name, family)
  }
  const out: Array<string> = []
  for (const [name, family] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`# HELP ${name} ${escapeHelp(family.help)}`, `# TYPE ${name} ${family.type}`, ...family.lines)
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

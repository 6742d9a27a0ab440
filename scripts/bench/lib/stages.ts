/**
 * Where a paid call's time goes: a tracer that keeps how long each named span took, so a benchmark can
 * print the payment's stages (decode, claim, admit, verify and its reads, operation, sign and send)
 * from the spans the service already opens. Installed with `Layer.setTracer`; nothing leaves the process.
 */
import { type Exit, Layer, Option, Tracer } from "effect"
import { figure, ms, percentile } from "./report.js"

const durations = new Map<string, Array<number>>()
// Each trace's spans: when each started and ended, in ms after the trace's first span began.
const traces = new Map<string, { readonly origin: bigint; readonly spans: Map<string, readonly [number, number]> }>()

const tracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const attributes = new Map<string, unknown>()
    const traceId = Option.match(parent, {
      onNone: () => Math.random().toString(16).slice(2),
      onSome: (p) => p.traceId
    })
    if (!traces.has(traceId)) traces.set(traceId, { origin: startTime, spans: new Map() })
    const span: Tracer.Span = {
      _tag: "Span",
      name,
      spanId: Math.random().toString(16).slice(2),
      traceId,
      parent,
      context,
      status: { _tag: "Started", startTime },
      attributes,
      links: [...links],
      sampled: true,
      kind,
      end: (endTime: bigint, _exit: Exit.Exit<unknown, unknown>) => {
        const taken = durations.get(name) ?? []
        taken.push(Number(endTime - startTime) / 1e6)
        durations.set(name, taken)
        const trace = traces.get(traceId)
        trace?.spans.set(name, [Number(startTime - trace.origin) / 1e6, Number(endTime - trace.origin) / 1e6])
      },
      attribute: (key, value) => void attributes.set(key, value),
      event: () => undefined,
      addLinks: () => undefined
    }
    return span
  },
  context: (f) => f()
})

export const stageTracer: Layer.Layer<never> = Layer.setTracer(tracer)

/** Forgets what was recorded (warm-up calls, another phase). */
export const resetStages = () => {
  durations.clear()
  traces.clear()
}

/** Prints p50 and p99 of each named span recorded since the last reset, in the order given. */
export const reportStages = (stages: ReadonlyArray<readonly [span: string, label: string]>) => {
  for (const [span, label] of stages) {
    const taken = [...(durations.get(span) ?? [])].sort((a, b) => a - b)
    if (taken.length === 0) continue
    figure(`  ${label}`, `p50 ${ms(percentile(taken, 50))}, p99 ${ms(percentile(taken, 99))} (${taken.length})`)
  }
}

/**
 * Prints, over the traces since the last reset that hold a `marker` span (a paid call's), the p50 of when
 * each named span started and ended after its trace's first span began: where on a call's timeline each
 * stage sits, and which stages overlap.
 */
export const reportTimeline = (stages: ReadonlyArray<readonly [span: string, label: string]>, marker: string) => {
  const marked = [...traces.values()].filter((trace) => trace.spans.has(marker))
  for (const [span, label] of stages) {
    const at = marked.flatMap((trace) => {
      const found = trace.spans.get(span)
      return found === undefined ? [] : [found]
    })
    if (at.length === 0) continue
    const starts = at.map(([start]) => start).sort((a, b) => a - b)
    const ends = at.map(([, end]) => end).sort((a, b) => a - b)
    figure(`  ${label}`, `from ${ms(percentile(starts, 50))} to ${ms(percentile(ends, 50))} (p50, ${at.length})`)
  }
}

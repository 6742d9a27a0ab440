/**
 * OpenTelemetry export of the service's spans (layers/Tracing.ts, layers/OtlpTracing.ts), caught by the SDK's in-memory
 * exporter: each request is one trace, its `http.server` span the root, `Operation.run` its child, and
 * the operation's own steps (`Effect.fn` spans) beneath that.
 */
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tracingTo } from "../../layers/OtlpTracing.js"
import { sharedManifest } from "../support/devnet.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"
import { deploymentOf } from "../support/services.js"

const exporter = new InMemorySpanExporter()
let server: TestServer

beforeAll(async () => {
  server = await startTestServer(deploymentOf(sharedManifest()), { PRICE_SEARCH: "0" }, {
    tracing: Layer.orDie(Layer.discard(tracingTo(new SimpleSpanProcessor(exporter))))
  })
  // Searches answer from the index: wait until it is at the head (health is not traced).
  for (let attempt = 0; attempt < 600; attempt++) {
    if ((await readJson(await fetch(`${server.baseUrl}/health`))).status === "ok") return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the index never reached the head")
}, 120_000)
afterAll(() => server?.close())

const search = (query: string) =>
  fetch(`${server.baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, limit: 1 })
  })

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId

describe("OTLP trace export", () => {
  it("exports one trace per request with the operation's steps as child spans", async () => {
    exporter.reset()
    for (const query of ["WETH", "USDC"]) {
      const answer = await search(query)
      expect(answer.status).toBeLessThan(500)
      await answer.arrayBuffer()
    }
    const spans = exporter.getFinishedSpans()
    const traces = new Map<string, Array<ReadableSpan>>()
    for (const span of spans) {
      const id = span.spanContext().traceId
      traces.set(id, [...(traces.get(id) ?? []), span])
    }
    // The indexer's background work is traced too, as traces of its own; the requests' are those under
    // an `http.server` root, and every `Operation.run` is inside one of them.
    const requests = [...traces.values()].filter((trace) =>
      trace.some((span) => parentOf(span) === undefined && span.name.startsWith("http.server"))
    )
    expect(requests).toHaveLength(2)
    expect(requests.flat().filter((span) => span.name === "Operation.run")).toHaveLength(
      spans.filter((span) => span.name === "Operation.run").length
    )
    for (const trace of requests) {
      const roots = trace.filter((span) => parentOf(span) === undefined)
      expect(roots).toHaveLength(1)
      expect(roots[0]!.name).toMatch(/^http\.server/)
      const run = trace.filter((span) => span.name === "Operation.run")
      expect(run).toHaveLength(1)
      expect(parentOf(run[0]!)).toBe(roots[0]!.spanContext().spanId)
      expect(run[0]!.attributes.operation).toBe("search")
      const steps = trace.filter((span) => parentOf(span) === run[0]!.spanContext().spanId)
      expect(steps.length).toBeGreaterThan(0)
      // Every span of the trace hangs from the root.
      const ids = new Set(trace.map((span) => span.spanContext().spanId))
      for (const span of trace) if (span !== roots[0]) expect(ids.has(parentOf(span)!)).toBe(true)
    }
  }, 60_000)
})

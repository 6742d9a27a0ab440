/**
 * Where a service in its own process spends a paid call's time: a collector its OpenTelemetry exporter
 * posts to (`OTEL_EXPORTER_OTLP_ENDPOINT`, OTLP over HTTP as JSON, layers/OtlpTracing.ts), keeping each
 * span's duration by name until `take` hands them over. Nothing leaves the machine.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

interface OtlpSpan {
  readonly name: string
  readonly startTimeUnixNano: string
  readonly endTimeUnixNano: string
}
interface OtlpExport {
  readonly resourceSpans?: ReadonlyArray<
    { readonly scopeSpans?: ReadonlyArray<{ readonly spans?: ReadonlyArray<OtlpSpan> }> }
  >
}

export const spanCollector = async () => {
  let spans = new Map<string, Array<number>>()
  let lost = 0
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      let body: OtlpExport
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport
      } catch {
        // An export its sender gave up on midway (the exporter's timeout, on a loaded machine) ends short.
        lost++
        response.writeHead(400).end()
        return
      }
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const took = Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e6
            const known = spans.get(span.name)
            if (known === undefined) spans.set(span.name, [took])
            else known.push(took)
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" })
      response.end("{}")
    })
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The durations (ms) by span name since the last take. */
    take: (): ReadonlyMap<string, ReadonlyArray<number>> => {
      const taken = spans
      spans = new Map()
      return taken
    },
    /** Exports that arrived cut short, since the start: their spans are missing from the takes. */
    lost: () => lost,
    close: () => new Promise<void>((closed) => server.close(() => closed()))
  }
}

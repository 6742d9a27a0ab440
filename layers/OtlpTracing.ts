/**
 * The OpenTelemetry side of ./Tracing.ts, in a module of its own: the SDK is loaded only by a service
 * that exports its spans. `OTEL_SERVICE_NAME` names the service (default `trade-checkpoint`).
 */
import * as Resource from "@effect/opentelemetry/Resource"
import * as Tracer from "@effect/opentelemetry/Tracer"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Config, Effect, Layer } from "effect"

const serviceName = Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("trade-checkpoint"))

/** Spans handed to `processor` (tests give an in-memory one); the provider is flushed and shut down with the scope. */
export const tracingTo = (processor: SpanProcessor) =>
  Layer.unwrapEffect(Effect.map(serviceName, (name) => {
    const provider = Layer.scoped(
      Tracer.OtelTracerProvider,
      Effect.flatMap(Resource.Resource, (resource) =>
        Effect.acquireRelease(
          Effect.sync(() => new BasicTracerProvider({ resource, spanProcessors: [processor] })),
          (provider) => Effect.promise(() => provider.shutdown())
        ))
    )
    return Tracer.layer.pipe(Layer.provide(provider), Layer.provide(Resource.layer({ serviceName: name })))
  }))

/** OTLP over HTTP to `<endpoint>/v1/traces`, the OpenTelemetry convention. */
export const otlpTracing = (endpoint: string) =>
  Layer.discard(
    tracingTo(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` })))
  )

/**
 * The service's Effect spans (`http.server`, `Operation.run`, every `Effect.fn` step beneath) exported
 * as OpenTelemetry traces when `OTEL_EXPORTER_OTLP_ENDPOINT` names a collector (./OtlpTracing.ts);
 * without it nothing is exported, the spans cost what they did, and the OpenTelemetry SDK is not even
 * loaded (it is a good part of a second of a cold start's module loading).
 */
import { Config, Effect, Layer, Option } from "effect"

export const Tracing = Layer.unwrapEffect(
  Effect.flatMap(Config.option(Config.string("OTEL_EXPORTER_OTLP_ENDPOINT")), (endpoint) =>
    Option.match(endpoint, {
      onNone: () => Effect.succeed(Layer.empty),
      onSome: (url) =>
        Effect.promise(() => import("./OtlpTracing.js")).pipe(Effect.map(({ otlpTracing }) => otlpTracing(url)))
    }))
)

/**
 * `GET /metrics` (`METRICS_PATH`; `off` serves none): the Prometheus exposition of the service's
 * metrics (layers/metrics/). A route beside the HttpApi, free and never gated by payment, untraced like
 * health checks since Prometheus polls it. Keep it off the public internet as operators keep any
 * metrics endpoint: put the path behind the proxy's allow-list (docs/operating.md). The process's memory
 * is read at each scrape, and full collections are watched while the route is served.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Config, Effect, Layer, Metric } from "effect"
import { CONTENT_TYPE, exposition } from "../../layers/metrics/Exposition.js"
import { PREFIX } from "../../layers/metrics/Metrics.js"
import { FullGcWatch, sampleMemory } from "../../layers/metrics/ProcessMemory.js"

export const metricsPath = Config.string("METRICS_PATH").pipe(Config.withDefault("/metrics"))

export const MetricsRoute = Layer.unwrapEffect(
  Effect.map(metricsPath, (path) =>
    path === "off" ? Layer.empty : Layer.merge(
      FullGcWatch,
      HttpApiBuilder.Router.use((router) =>
        router.get(
          path as `/${string}`,
          Effect.map(Effect.zipRight(sampleMemory, Metric.snapshot), (snapshot) =>
            // The service's own families: Effect's fiber counters (`effect_fiber_*`) break Prometheus's naming
            // rules (a counter that falls, no `_total`) and say nothing an operator acts on.
            HttpServerResponse.text(exposition(snapshot.filter((pair) => pair.metricKey.name.startsWith(PREFIX))), {
              contentType: CONTENT_TYPE,
              headers: { "cache-control": "no-store" }
            }))
        )
      )
    ))
)

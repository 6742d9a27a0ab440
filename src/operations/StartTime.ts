/**
 * When this instance of the service started (its layers were built), for `/health`'s uptime. A
 * service rather than a time taken at import, so each composition (a test server, an embedding
 * program) counts from its own start.
 */
import { Clock, Effect } from "effect"

export class StartTime extends Effect.Service<StartTime>()("StartTime", {
  effect: Effect.map(Clock.currentTimeMillis, (millis) => ({ millis }))
}) {}

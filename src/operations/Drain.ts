/**
 * Graceful shutdown behind a load balancer. On SIGTERM the runtime closes the service's scope; the
 * first finalizer is `DrainOnShutdown` (./../http/Server.ts), which runs `drain` before the HTTP server
 * stops listening:
 *
 * 1. `/health` answers 503 (`down`, reason `draining`), so the balancer takes the replica out of its
 *    rotation within its check interval, while requests that still arrive are served;
 * 2. after `DRAIN_MS` every answer carries `Connection: close`, so no kept-alive connection brings
 *    another request, and the drain waits until no request is in flight: a paid call finishes, its
 *    settlement included (the gate settles inside the request), before the process goes on;
 * 3. then the server stops listening and the process exits.
 *
 * The requests in flight are counted at the Node server (`track`), where every request arrives and
 * every answer leaves, whatever route or protocol error it went through.
 */
import { Duration, Effect, Ref } from "effect"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { AppConfig } from "../../layers/AppConfig.js"

/** An in-flight request is waited for at most this long (the server's own request timeout is 15 s). */
const LONGEST_REQUEST = Duration.seconds(60)

export class Drain extends Effect.Service<Drain>()("Drain", {
  effect: Effect.gen(function*() {
    const { drainMillis } = yield* AppConfig
    const draining = yield* Ref.make(false)
    let inFlight = 0
    let closing = false
    const idleWaiters: Array<() => void> = []

    const track = (server: Server) =>
      server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
        inFlight++
        if (closing) response.setHeader("connection", "close")
        response.once("close", () => {
          inFlight--
          if (inFlight === 0) { for (const resume of idleWaiters.splice(0)) resume() }
        })
      })

    const idle = Effect.async<void>((resume) => {
      if (inFlight === 0) return resume(Effect.void)
      idleWaiters.push(() => resume(Effect.void))
    })

    const drain = Effect.gen(function*() {
      yield* Ref.set(draining, true)
      yield* Effect.logInfo(`draining: /health fails for ${drainMillis} ms, then in-flight requests finish`)
      yield* Effect.sleep(Duration.millis(drainMillis))
      closing = true
      yield* Effect.logInfo(`draining: waiting for ${inFlight} request(s) in flight`)
      yield* idle.pipe(Effect.timeout(LONGEST_REQUEST), Effect.ignore)
      yield* Effect.logInfo("drained: no request in flight, closing the server")
    })

    return { isDraining: Ref.get(draining), track, drain }
  })
}) {}

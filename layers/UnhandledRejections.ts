/**
 * The service's answer to a promise that rejects with no handler. Node's default ends the process, and
 * with it every call in flight: paid calls between verify and settlement, and broadcast settlements'
 * follow-ups, which live in this process's memory. The service's own work runs in fibers, whose failures
 * are always observed, so such a promise is a library's abandoned work whose caller was already answered
 * (as the x402 library's asset check was, see layers/payment/SettlementSigner.ts). An operator is served
 * better by a replica that keeps serving and says so loudly, at error level with the reason, than by one
 * that drops every call it holds; the log line is the bug report.
 */
import { Effect, Layer, Runtime } from "effect"

const reasonOf = (reason: unknown) => reason instanceof Error ? reason.stack ?? reason.message : String(reason)

export const logUnhandledRejections = Layer.scopedDiscard(
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const log = (reason: unknown) =>
      Runtime.runFork(runtime)(
        Effect.logError("a promise rejected with no handler: logged, the service keeps serving").pipe(
          Effect.annotateLogs("reason", reasonOf(reason))
        )
      )
    yield* Effect.acquireRelease(
      Effect.sync(() => process.on("unhandledRejection", log)),
      () => Effect.sync(() => process.off("unhandledRejection", log))
    )
  })
)

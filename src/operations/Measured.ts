/**
 * Every call's count, latency and in-flight share, taken in the one place every operation passes
 * (./Run.ts), labelled by operation and outcome: `status` is the outcome's kind, `error` the failed
 * call's error (a bounded set: the error table's tags).
 */
import { Effect } from "effect"
import { inFlight, labelled, requests, requestSeconds, secondsSince } from "../../layers/metrics/Metrics.js"
import type { Outcome } from "./Outcome.js"

const STATUS: Record<Outcome["_tag"], string> = {
  Answered: "answered",
  Failed: "failed",
  Demanded: "payment_required",
  Rejected: "payment_rejected",
  Pending: "settlement_pending",
  GateFailed: "payment_failed"
}

const errorOf = (outcome: Outcome): string =>
  outcome._tag === "Failed" || outcome._tag === "GateFailed" ? outcome.error._tag : ""

const none: ReadonlyArray<never> = []
const requestsOf = labelled(requests)
const secondsOf = labelled(requestSeconds)

export const measured =
  (operation: string) => <R>(call: Effect.Effect<Outcome, never, R>): Effect.Effect<Outcome, never, R> =>
    Effect.suspend(() => {
      const start = performance.now()
      inFlight.unsafeModify(1, none)
      return Effect.onExit(call, (exit) =>
        Effect.sync(() => {
          inFlight.unsafeModify(-1, none)
          // An interrupted call (the client went away) has no outcome: counted as such.
          const tags = {
            operation,
            status: exit._tag === "Success" ? STATUS[exit.value._tag] : "interrupted",
            error: exit._tag === "Success" ? errorOf(exit.value) : ""
          }
          requestsOf(tags).unsafeUpdate(1, none)
          secondsOf(tags).unsafeUpdate(secondsSince(start), none)
        }))
    })

/**
 * `health`: whether the service can answer from a current view of the chain (see
 * `src/indexer/Freshness.ts` for `ok` / `degraded` / `down`) and the chain's head as of the call. The head
 * is read when the call arrives, a read shared with every concurrent caller and operation (at most one
 * in flight), so however often health is asked it costs the node at most one head read at a time, and
 * the callers that waited for one read share the report made once it landed; when the last poll failed
 * it reports the newest head seen without asking. A pushed head is not enough: the
 * node's push of a block can land after a client has the block's receipt (test/freshness/atHead.test.ts).
 */
import { Context, Duration, Effect, Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { PaymentGate, type PaymentGateShape } from "../../layers/PaymentGate.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import { HealthResponse } from "../../schema/Health.js"
import { SERVICE_VERSION } from "../../schema/Service.js"
import { ChainHead, type HeadRead } from "../indexer/ChainHead.js"
import { currentFreshness } from "../indexer/Freshness.js"
import type { Indexer } from "../indexer/Indexer.js"
import { RULES_VERSION } from "../search/Rules.js"
import { Drain } from "./Drain.js"
import { StartTime } from "./StartTime.js"

/** How long health waits for the head read before it reports the newest head seen instead. */
const HEAD_READ_BOUND = Duration.seconds(1)

// A report equal to the last one is returned as that same object: the interpreter encodes, and the
// edge renders, an answer object once (./Run.ts, src/http/Serve.ts), and a monitor mostly sees the
// report it saw a moment ago. Equal by content, so runtimes sharing this module cannot mix reports up.
let last: HealthResponse | undefined

/** Whether two JSON values (plain objects, arrays, primitives) are equal by content. */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length &&
    keys.every((key) => sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}

const sameAsLast = (report: HealthResponse): HealthResponse => {
  if (last !== undefined && sameJson(last, report)) return last
  last = report
  return report
}

type Exposure = Effect.Effect.Success<PaymentGateShape["exposure"]>

/** What a report is made of: the service's state read once the head read landed (or was given up on). */
interface Readings {
  readonly chainId: number
  readonly state: Effect.Effect.Success<typeof currentFreshness>
  readonly draining: boolean
  readonly startedMillis: number
  readonly pollInterval: Duration.Duration
  readonly settlementMode: PaymentGateShape["settlementMode"]
  readonly exposure: Exposure
}

/** The report, a pure function of the readings. */
const reportOf = ({ chainId, draining, exposure, pollInterval, settlementMode, startedMillis, state }: Readings) => {
  const { bounds, freshness: current, input } = state
  // A replica shutting down reports itself down, so the balancer stops sending it requests (./Drain.ts).
  const freshness = draining
    ? { ...current, status: "down" as const, reason: "draining: this replica is shutting down" }
    : current
  const { now, probe, progress } = input
  // A probe older than the age bound says nothing about now.
  const reachable = probe !== null && probe.ok && now - probe.at <= bounds.maxAgeSec * 1000
  const answer: HealthResponse = {
    status: freshness.status,
    reason: freshness.reason,
    chainId,
    network: `eip155:${chainId}`,
    headBlock: freshness.head?.header.number ?? null,
    headSource: freshness.head?.source ?? null,
    // Before its first block the index sits one block before the start block, which may be -1.
    indexedBlock: progress.indexed < 0 ? null : progress.indexed,
    indexLagBlocks: freshness.lagBlocks,
    indexLagMs: freshness.lagMs,
    indexAgeSec: freshness.indexAgeSec,
    catchingUp: progress.catchingUp,
    logsPerSec: progress.logsPerSec,
    rpc: {
      reachable,
      latencyMs: reachable ? probe.latencyMs : null,
      block: probe?.block ?? null,
      // A probe that landed after this answer read its clock is 0 s old, not a negative age.
      probedAgoSec: probe === null ? null : Math.max(0, Math.round((now - probe.at) / 100) / 10),
      pollIntervalMs: Math.round(Duration.toMillis(pollInterval))
    },
    payments: {
      settlementMode,
      unconfirmed: { count: exposure.unconfirmed.count, value: exposure.unconfirmed.value.toString() },
      debts: { count: exposure.debts.count, value: exposure.debts.value.toString() },
      payers: exposure.payers.map(({ count, payer, value }) => ({ payer, count, value: value.toString() }))
    },
    version: SERVICE_VERSION,
    rulesVersion: RULES_VERSION,
    uptimeSec: Math.floor((now - startedMillis) / 1000)
  }
  return sameAsLast(answer)
}

type HealthServices = AppConfig | ChainHead | Indexer | Drain | StartTime | PaymentGate

/** The readings, from the services the fiber's context was read for once. */
const readingsWith = (services: Context.Context<HealthServices>) => {
  const chainHead = Context.get(services, ChainHead)
  const gate = Context.get(services, PaymentGate)
  return Effect.map(
    Effect.all({
      state: currentFreshness,
      draining: Context.get(services, Drain).isDraining,
      pollInterval: chainHead.pollInterval,
      exposure: gate.exposure
    }),
    (read): Readings => ({
      ...read,
      chainId: Context.get(services, AppConfig).chainId,
      startedMillis: Context.get(services, StartTime).millis,
      settlementMode: gate.settlementMode
    })
  )
}

/** A report from readings taken now. */
const reportNow = (services: Context.Context<HealthServices>) => Effect.map(readingsWith(services), reportOf)

// Reports by the head read they were made after. Every caller that waited for one read arrived before it
// was sent, so the report made once it landed is as of after each of their arrivals: made once per read,
// not once per caller (a burst of polls shares one read, and the readings were most of a check's cost).
const reportAfter = new WeakMap<HeadRead, HealthResponse>()

const reportOnceAfter = (read: HeadRead, services: Context.Context<HealthServices>) => {
  const made = reportAfter.get(read)
  return made !== undefined ? Effect.succeed(made) : Effect.map(reportNow(services), (report) => {
    reportAfter.set(read, report)
    return report
  })
}

// Combinators and no span: monitors poll health often, a traced call is named by the interpreter's
// `Operation.run` span (operation `health`), and every nested span copies the fiber's service context.
export const health = (): Effect.Effect<HealthResponse, never, HealthServices> =>
  Effect.contextWithEffect((services: Context.Context<HealthServices>) => {
    const chainHead = Context.get(services, ChainHead)
    // A head pushed a moment ago may still be on its way: the head as of this call is read (shared with
    // concurrent calls), unless the chain is known not to answer; then the newest head seen stands, as
    // it does when the read takes longer than the bound.
    return Effect.flatMap(chainHead.probe, (probe) =>
      probe?.ok === false ? reportNow(services) : Effect.flatMap(
        chainHead.headWithin(HEAD_READ_BOUND),
        (read) => read === undefined ? reportNow(services) : reportOnceAfter(read, services)
      ))
  })

/**
 * The operation: the report, or while `down` the `rpc_unavailable` error carrying it (served with 503
 * beside the envelope), so a supervisor reads the status and a client `next` and `retryAfterSec`.
 */
export const healthCheck = () =>
  Effect.flatMap(health(), (report) =>
    report.status !== "down"
      ? Effect.succeed(report)
      : Effect.flatMap(Effect.orDie(Schema.encode(HealthResponse)(report)), (encoded) =>
        Effect.fail(
          new RpcUnavailable({
            message: "the service cannot answer from a current view of the chain",
            hint: report.reason ?? "the index is not current",
            report: encoded
          })
        )))

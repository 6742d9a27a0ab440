/**
 * The one interpreter of the operation table: check → price → gate → run → encode, for HTTP and MCP
 * alike. A bad request never reaches it (each edge decodes first), and what can be checked of a decoded
 * one without running it (the operation's `check`) is answered before any payment is asked for; the answer is
 * encoded inside the charged effect, so only an answer that leaves as a success is settled; and an
 * operation's own failure is told apart from the payment gate's, which the edges write differently.
 */
import { Context, Data, Effect, Option, Schema, Tracer } from "effect"
import { type GateFailure, PaymentGate, type SubmittedPayment } from "../../layers/PaymentGate.js"
import type { TradeError } from "../../schema/Errors.js"
import type { ResourceInfo } from "../../schema/Payment.js"
import { AtHead } from "../indexer/AtHead.js"
import { type Cost, type CostContext, priceOf } from "./Cost.js"
import type { HttpMethod, Operation } from "./Declare.js"
import { measured } from "./Measured.js"
import { Outcome } from "./Outcome.js"

/** The payment a call carries, if any, and what it pays for, as its edge names it. */
export interface Payment {
  readonly submitted: Option.Option<SubmittedPayment>
  readonly resource: ResourceInfo
  /** x402 extensions the offer advertises (the `bazaar` discovery extension, src/operations/Discovery.ts). */
  readonly extensions: Readonly<Record<string, unknown>>
}

/** The operation's own failure inside the gate, kept apart from the gate's failures. */
class OperationFailed extends Data.TaggedError("OperationFailed")<{ readonly error: TradeError }> {}

/**
 * What is done with a decoded request before anything is charged: the operation's `check`, then its
 * price (none when free). A failure here is answered as it is, and costs nothing.
 */
export const admit = <I, E extends TradeError, R>(
  op: { readonly check: ((input: I) => Effect.Effect<void, E, R>) | undefined; readonly cost: Cost<I> },
  input: I
): Effect.Effect<Option.Option<bigint>, E | TradeError, R | CostContext> =>
  op.check === undefined ? priceOf(op.cost, input) : Effect.zipRight(op.check(input), priceOf(op.cost, input))

/**
 * Answers already encoded, by answer object and schema: answers are immutable, and an operation that
 * returns the object it returned before (health, unchanged) is not encoded again.
 */
const encoded = new WeakMap<object, { readonly schema: Schema.Schema.AnyNoContext; readonly value: unknown }>()

const encodeOnce = <Res extends Schema.Schema.AnyNoContext>(response: Res, value: Schema.Schema.Type<Res>) => {
  const known = typeof value === "object" && value !== null ? encoded.get(value) : undefined
  if (known?.schema === response) return Effect.succeed(known.value)
  // An answer that fails its own schema is a defect of ours: the edge reports it as `internal`.
  return Effect.orDie(Schema.encode(response)(value)).pipe(Effect.tap((wire) => {
    if (typeof value === "object" && value !== null) encoded.set(value, { schema: response, value: wire })
  }))
}

/** An operation's answer encoded by its own response schema, or the operation's own failure. */
const answerOf = <Res extends Schema.Schema.AnyNoContext, E, R>(
  response: Res,
  run: Effect.Effect<Schema.Schema.Type<Res>, E, R>
): Effect.Effect<unknown, E, R> => Effect.flatMap(run, (value) => encodeOnce(response, value))

/** How the payment gate refused or failed a call, as an outcome. */
const gateOutcome = (failure: OperationFailed | GateFailure): Outcome => {
  switch (failure._tag) {
    case "OperationFailed":
      return Outcome.Failed({ error: failure.error })
    case "PaymentDemanded":
      return Outcome.Demanded({ refusal: failure })
    case "PaymentRejected":
      return Outcome.Rejected({ refusal: failure })
    case "SettlementPending":
      return Outcome.Pending({ refusal: failure })
    default:
      return Outcome.GateFailed({ error: failure })
  }
}

// Combinators rather than a generator: every call passes here, a health check as much as a paid quote.
export const runOperation = <
  Req extends Schema.Schema.AnyNoContext,
  Res extends Schema.Schema.AnyNoContext,
  E extends TradeError,
  R
>(
  op: Operation<string, HttpMethod, Req, Res, E, R>,
  input: Schema.Schema.Type<Req>,
  payment: Payment
): Effect.Effect<Outcome, never, R | PaymentGate | CostContext> => {
  const failed = (error: E | TradeError) => Effect.succeed(Outcome.Failed({ error }))
  const charged = (price: bigint) =>
    Effect.flatMap(PaymentGate, (gate) =>
      gate.charge(
        { price, resource: payment.resource, extensions: payment.extensions, readOnly: op.readOnly === true },
        payment.submitted,
        // Made only once the gate lets the call run: an operation made with `Effect.fn` captures its call
        // site when called, which an unpaid call would pay for with nothing to show.
        Effect.mapError(
          answerOf(op.response, Effect.suspend(() => op.run(input, { charged: price }))),
          (error) => new OperationFailed({ error })
        )
      )).pipe(Effect.match({
        onFailure: gateOutcome,
        onSuccess: (paid) => Outcome.Answered({ body: paid.value, receipt: paid.receipt })
      }))
  return Effect.matchEffect(admit(op, input), {
    onFailure: failed,
    onSuccess: (price) =>
      Option.isNone(price) || price.value === 0n
        ? Effect.matchEffect(answerOf(op.response, op.run(input, { charged: 0n })), {
          onFailure: failed,
          onSuccess: (body) => Effect.succeed(Outcome.Answered({ body, receipt: Option.none() }))
        })
        : charged(price.value)
  }).pipe(
    // The check before payment and the run read the head once, at the request's arrival; an operation
    // that reads the head itself has no snapshot to share, and its call is spared the fiber-ref set.
    (call) => op.ownHead === true ? call : AtHead.oneArrival(call),
    measured(op.name),
    tracedAsItsEdge(op.name)
  )
}

/**
 * The call in an `Operation.run` span under its edge's span (`http.server`, `Mcp.callTool`). A call its
 * edge does not trace (a health check: monitors poll it, src/http/Server.ts) opens none: the span and
 * its copy of the fiber's service context were the largest part of a health check that outlives its
 * head read, and a span with no parent would be a trace of its own for every poll.
 */
const tracedAsItsEdge = (operation: string) => <A, E, R>(call: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.contextWithEffect((context: Context.Context<never>) =>
    Option.isNone(Context.getOption(context, Tracer.ParentSpan))
      ? call
      // No stack trace: it would always point here, and capturing it is most of the span's cost.
      : Effect.withSpan(call, "Operation.run", { attributes: { operation }, captureStackTrace: false })
  )

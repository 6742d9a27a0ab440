/**
 * The one interpreter of the operation table: check → price → gate → run → encode, for HTTP and MCP
 * alike. A bad request never reaches it (each edge decodes first), and what can be checked of a decoded
 * one without running it (the operation's `check`) is answered before any payment is asked for; the answer is
 * encoded inside the charged effect, so only an answer that leaves as a success is settled; and an
 * operation's own failure is told apart from the payment gate's, which the edges write differently.
 */
import { Data, Effect, Option, Schema } from "effect"
import { PaymentGate, type SubmittedPayment } from "../../layers/PaymentGate.js"
import type { TradeError } from "../../schema/Errors.js"
import type { ResourceInfo } from "../../schema/Payment.js"
import { type Cost, type CostContext, priceOf } from "./Cost.js"
import type { Call, HttpMethod, Operation } from "./Declare.js"
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
  const answer = (call: Call) =>
    op.run(input, call).pipe(
      // An answer that fails its own schema is a defect of ours: the edge reports it as `internal`.
      Effect.flatMap((value) => Effect.orDie(Schema.encode(op.response)(value))),
      Effect.mapError((error) => new OperationFailed({ error }))
    )
  return Effect.gen(function*() {
    const price = yield* Effect.mapError(admit(op, input), (error) => new OperationFailed({ error }))
    if (Option.isNone(price) || price.value === 0n) {
      return Outcome.Answered({ body: yield* answer({ charged: 0n }), receipt: Option.none() })
    }
    const gate = yield* PaymentGate
    const paid = yield* gate.charge(
      { price: price.value, resource: payment.resource, extensions: payment.extensions },
      payment.submitted,
      answer({ charged: price.value })
    )
    return Outcome.Answered({ body: paid.value, receipt: paid.receipt })
  }).pipe(
    Effect.catchAll((failure): Effect.Effect<Outcome> => {
      switch (failure._tag) {
        case "OperationFailed":
          return Effect.succeed(Outcome.Failed({ error: failure.error }))
        case "PaymentDemanded":
          return Effect.succeed(Outcome.Demanded({ refusal: failure }))
        case "PaymentRejected":
          return Effect.succeed(Outcome.Rejected({ refusal: failure }))
        case "SettlementPending":
          return Effect.succeed(Outcome.Pending({ refusal: failure }))
        default:
          return Effect.succeed(Outcome.GateFailed({ error: failure }))
      }
    }),
    // No stack trace: it would always point here, and capturing it is most of the span's cost.
    Effect.withSpan("Operation.run", { attributes: { operation: op.name }, captureStackTrace: false })
  )
}

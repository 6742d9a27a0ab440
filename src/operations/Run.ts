/**
 * The one interpreter of the operation table: price → gate → run → encode, for HTTP and MCP alike.
 * A bad request never reaches it (each edge decodes first), so nothing is asked for one; the answer is
 * encoded inside the charged effect, so only an answer that leaves as a success is settled; and an
 * operation's own failure is told apart from the payment gate's, which the edges write differently.
 */
import { Data, Effect, Option, Schema } from "effect"
import { PaymentGate, type SubmittedPayment } from "../../layers/PaymentGate.js"
import type { TradeError } from "../../schema/Errors.js"
import type { ResourceInfo } from "../../schema/Payment.js"
import { type CostContext, priceOf } from "./Cost.js"
import type { Call, HttpMethod, Operation } from "./Declare.js"
import { Outcome } from "./Outcome.js"

/** The payment a call carries, if any, and what it pays for, as its edge names it. */
export interface Payment {
  readonly submitted: Option.Option<SubmittedPayment>
  readonly resource: ResourceInfo
}

/** The operation's own failure inside the gate, kept apart from the gate's failures. */
class OperationFailed extends Data.TaggedError("OperationFailed")<{ readonly error: TradeError }> {}

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
    const price = yield* Effect.mapError(priceOf(op.cost, input), (error) => new OperationFailed({ error }))
    if (Option.isNone(price) || price.value === 0n) {
      return Outcome.Answered({ body: yield* answer({ charged: 0n }), receipt: Option.none() })
    }
    const gate = yield* PaymentGate
    const paid = yield* gate.charge(
      { price: price.value, resource: payment.resource },
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
        default:
          return Effect.succeed(Outcome.GateFailed({ error: failure }))
      }
    }),
    Effect.withSpan("Operation.run", { attributes: { operation: op.name } })
  )
}

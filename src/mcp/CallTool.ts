/**
 * One tool call, the MCP twin of `src/http/ServeOperation.ts`: decode the arguments with the request
 * schema (`schema/Decode.ts`, so bad input reads the same as over HTTP), price the call, pass it through
 * the one payment gate, run the operation and encode its answer. What differs from HTTP is only how
 * outcomes are written: the answer or error envelope as `structuredContent` and as JSON text, the
 * payment requirements as an error result, the settlement receipt in `_meta`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Data, Effect, Option, Schema } from "effect"
import { PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { decodeRequest } from "../../schema/Decode.js"
import { toErrorBody } from "../../schema/ErrorBody.js"
import { Internal, type TradeError } from "../../schema/Errors.js"
import type { PaymentRequired, SettlementReceipt } from "../../schema/Payment.js"
import { admit, chargedAt } from "../operations/Operation.js"
import { mcpDiscovery } from "../payment/Discovery.js"
import type { Tool } from "./Tools.js"

export const PAYMENT_META = "x402/payment"
export const PAYMENT_RESPONSE_META = "x402/payment-response"

/**
 * The operation's own failure, kept apart from the gate's: an `internal` from the payment library is
 * written differently (text only, no `next`) from one of the operation. `fields` are the answer's when
 * it is also a refusal (health while `down`); either way it is an error result, so never charged.
 */
class OperationFailed extends Data.TaggedError("OperationFailed")<{
  readonly error: TradeError
  readonly fields: object
}> {}

const result = (body: object, isError: boolean, settlement?: SettlementReceipt): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(body) }],
  structuredContent: body as Record<string, unknown>,
  ...(isError ? { isError: true } : {}),
  ...(settlement === undefined ? {} : { _meta: { [PAYMENT_RESPONSE_META]: settlement } })
})

/**
 * Written by the payment layer: the requirements to pay afresh, with no `next`. As the x402 MCP transport
 * has it, the requirements themselves are the structured content and the text wraps them in `x402/error`.
 */
const paymentResult = (offer: PaymentRequired, settlement?: SettlementReceipt): CallToolResult => {
  const wrapped = { "x402/error": { code: 402, message: offer.error ?? "payment required", data: offer } }
  return { ...result(offer, true, settlement), content: [{ type: "text", text: JSON.stringify(wrapped) }] }
}

const failed = (error: TradeError) => new OperationFailed({ error, fields: {} })

const paymentLibraryFailure = (message: string): CallToolResult => ({
  content: [{ type: "text", text: `payment error: ${message}; nothing was charged` }],
  isError: true
})

export const callTool = (tool: Tool, args: unknown, meta: Readonly<Record<string, unknown>> | undefined) => {
  const op = tool.operation
  const decode = decodeRequest(tool.request)
  const encode = Schema.encode(op.response)
  const submitted = meta !== undefined && meta[PAYMENT_META] !== undefined
    ? Option.some(SubmittedPayment.json(meta[PAYMENT_META]))
    : Option.none()
  return Effect.gen(function*() {
    const input = yield* decode(args ?? {}).pipe(Effect.mapError(failed))
    const run = Effect.gen(function*() {
      const answer = yield* op.run(op.request === undefined ? undefined : input).pipe(
        Effect.mapError(failed)
      )
      // An answer that fails its own schema is a defect of ours, reported as `internal`.
      const body = (yield* Effect.orDie(encode(answer))) as object
      const refused = op.refusal?.of(answer)
      return refused === undefined ? body : yield* new OperationFailed({ error: refused, fields: body })
    })
    const price = yield* admit(op, input).pipe(Effect.mapError(failed))
    if (Option.isNone(price) || price.value === 0n) return result(yield* run, false)
    const gate = yield* PaymentGate
    const charge = {
      price: price.value,
      resource: { url: `mcp://tool/${tool.name}`, description: op.summary, mimeType: "application/json" },
      extensions: mcpDiscovery(op, tool)
    }
    const paid = yield* gate.charge(charge, submitted, run.pipe(chargedAt(price.value)))
    return result(paid.value, false, Option.getOrUndefined(Option.map(paid.receipt, (r) => r.settlement)))
  }).pipe(
    Effect.catchAll((failure): Effect.Effect<CallToolResult> => {
      switch (failure._tag) {
        case "OperationFailed":
          return Effect.succeed(result({ ...failure.fields, ...toErrorBody(failure.error) }, true))
        case "PaymentDemanded":
          return Effect.succeed(paymentResult(failure.offer))
        case "PaymentRejected":
          return Effect.succeed(paymentResult(failure.offer, failure.settlement))
        case "SettlementPending":
          // No offer: paying again could pay twice. The same payment resent is served once it is mined.
          return Effect.succeed(result(failure.settlement, true, failure.settlement))
        case "Internal":
          // The payment library failed mid-call (the payment was not settled): as the x402 MCP transport
          // writes it, text only and no `next`.
          return Effect.succeed(paymentLibraryFailure(failure.message))
        default:
          return Effect.succeed(result(toErrorBody(failure), true))
      }
    }),
    Effect.catchAllCause((cause) =>
      Effect.logError("MCP tool call failed", cause).pipe(
        Effect.as(result(toErrorBody(new Internal({ message: "internal error" })), true)),
        Effect.annotateLogs({ tool: tool.name, interrupted: Cause.isInterruptedOnly(cause) })
      )
    ),
    Effect.withSpan("Mcp.callTool", { attributes: { tool: tool.name } })
  )
}

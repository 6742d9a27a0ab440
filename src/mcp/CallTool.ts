/**
 * One tool call: the arguments decoded with the request schema (`schema/Decode.ts`, so bad input reads
 * the same as over HTTP), then the interpreter (src/operations/Run.ts), as for HTTP. What differs is
 * only how the outcome is written: the answer or error envelope as `structuredContent` and as JSON
 * text, the payment requirements as an error result, the settlement receipt in `_meta`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Option, type Schema } from "effect"
import { SubmittedPayment } from "../../layers/PaymentGate.js"
import { decodeRequest } from "../../schema/Decode.js"
import { toErrorBody } from "../../schema/ErrorBody.js"
import { Internal, type TradeError } from "../../schema/Errors.js"
import type { PaymentRequired, SettlementReceipt } from "../../schema/Payment.js"
import type { HttpMethod, Operation } from "../operations/Declare.js"
import { mcpDiscovery } from "../operations/Discovery.js"
import { Outcome } from "../operations/Outcome.js"
import { runOperation } from "../operations/Run.js"

export const PAYMENT_META = "x402/payment"
export const PAYMENT_RESPONSE_META = "x402/payment-response"

/** A tool's call: its arguments and the request's `_meta`, to the result. */
export type ToolCall<R> = (
  args: unknown,
  meta: Readonly<Record<string, unknown>> | undefined
) => Effect.Effect<CallToolResult, never, R>

const result = (body: object, isError: boolean, settlement?: SettlementReceipt): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(body) }],
  structuredContent: { ...body },
  ...(isError ? { isError: true } : {}),
  ...(settlement === undefined ? {} : { _meta: { [PAYMENT_RESPONSE_META]: settlement } })
})

const failed = (error: TradeError) => result(toErrorBody(error), true)

/**
 * Written by the payment layer: the requirements to pay afresh, with no `next`. As the x402 MCP transport
 * has it, the requirements themselves are the structured content and the text wraps them in `x402/error`,
 * its message the refusal's reason (the offer's `error`) or, for a call sent without payment, "payment required".
 */
const paymentResult = (offer: PaymentRequired, message: string, settlement?: SettlementReceipt): CallToolResult => {
  const wrapped = { "x402/error": { code: 402, message, data: offer } }
  return { ...result(offer, true, settlement), content: [{ type: "text", text: JSON.stringify(wrapped) }] }
}

const render = Outcome.$match({
  Answered: ({ body, receipt }) =>
    result(
      typeof body === "object" && body !== null ? body : { value: body },
      false,
      Option.getOrUndefined(Option.map(receipt, (paid) => paid.settlement))
    ),
  Failed: ({ error }) => failed(error),
  Demanded: ({ refusal }) => paymentResult(refusal.offer, "payment required"),
  Rejected: ({ refusal }) => paymentResult(refusal.offer, refusal.offer.error ?? "payment refused", refusal.settlement),
  // No offer: paying again could pay twice. The same payment resent is served once it is mined.
  Pending: ({ refusal }) => result(refusal.settlement, true, refusal.settlement),
  GateFailed: ({ error }): CallToolResult =>
    error._tag === "Internal"
      // The payment library failed mid-call (the payment was not settled): as the x402 MCP transport
      // writes it, text only and no `next`.
      ? { content: [{ type: "text", text: `payment error: ${error.message}; nothing was charged` }], isError: true }
      : failed(error)
})

/** The call of the tool `name` for `op`, whose arguments `inputSchema` describes (for the offer's discovery). */
export const toolCall = <
  Req extends Schema.Schema.AnyNoContext,
  Res extends Schema.Schema.AnyNoContext,
  E extends TradeError,
  R
>(
  name: string,
  op: Operation<string, HttpMethod, Req, Res, E, R>,
  inputSchema: Readonly<Record<string, unknown>>
) => {
  const extensions = mcpDiscovery(op, { name, inputSchema })
  const decode = decodeRequest(op.request)
  const payment = (meta: Readonly<Record<string, unknown>> | undefined) => ({
    submitted: meta !== undefined && meta[PAYMENT_META] !== undefined
      ? Option.some(SubmittedPayment.json(meta[PAYMENT_META]))
      : Option.none(),
    resource: { url: `mcp://tool/${name}`, description: op.summary, mimeType: "application/json" },
    extensions
  })
  return (args: unknown, meta: Readonly<Record<string, unknown>> | undefined) =>
    decode(args ?? {}).pipe(
      Effect.matchEffect({
        onFailure: (invalid) => Effect.succeed(failed(invalid)),
        onSuccess: (input) => Effect.map(runOperation(op, input, payment(meta)), render)
      }),
      Effect.catchAllCause((cause) =>
        Effect.logError("MCP tool call failed", cause).pipe(
          Effect.as(failed(new Internal({ message: "internal error" }))),
          Effect.annotateLogs({ tool: name, interrupted: Cause.isInterruptedOnly(cause) })
        )
      ),
      Effect.withSpan("Mcp.callTool", { attributes: { tool: name } })
    )
}

/** Calls `tool` with `args` and the request's `_meta`. */
export const callTool = <R>(
  tool: { readonly call: ToolCall<R> },
  args: unknown,
  meta: Readonly<Record<string, unknown>> | undefined
) => tool.call(args, meta)

/**
 * The MCP tools, derived from the operation table: one tool per operation declared with a `tool`
 * (./CallTool.ts runs it). Input and output JSON Schemas are generated from the operation's own Effect
 * schemas, so HTTP and MCP accept and answer exactly the same shapes.
 */
import { Effect, JSONSchema, Schema } from "effect"
import type { PaymentGate } from "../../layers/PaymentGate.js"
import { ErrorBody } from "../../schema/ErrorBody.js"
import { PaymentRequired } from "../../schema/Payment.js"
import { type CostContext, isPaid } from "../operations/Cost.js"
import type { AnyOperation, Operation, ServedOperation } from "../operations/Declare.js"
import { carries } from "../operations/HttpErrors.js"
import { operations } from "../operations/table.js"
import { type ToolCall, toolCall } from "./CallTool.js"
import { NEXT_GUIDE, PAYMENT_GUIDE, TRADE_FLOW } from "./Guide.js"

const pascal = (name: string) =>
  name.split(/[-_/]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("")

/** `search` -> `tradeSearch`, `swap-tx` -> `tradeSwapTx`; system operations keep their name. */
export const toolNameOf = (op: AnyOperation): string => op.group === "trade" ? `trade${pascal(op.name)}` : op.name

/** A tool's input or output schema as MCP types it: a JSON Schema object, anything else beside. */
const ObjectSchema = Schema.Struct({
  type: Schema.Literal("object"),
  properties: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Object }), { exact: true }),
  required: Schema.optionalWith(Schema.Array(Schema.String).pipe(Schema.mutable), { exact: true })
}, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
type ObjectSchema = typeof ObjectSchema.Type

/**
 * The JSON Schema of `schema`, every definition inlined under its own `$defs` as MCP wants a
 * self-contained object; decoded into the SDK's type at this boundary.
 */
const jsonSchemaOf = (schema: Schema.Schema.All): ObjectSchema => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const root = JSONSchema.fromAST(schema.ast, { definitions, topLevelReferenceStrategy: "skip" })
  return Schema.decodeUnknownSync(ObjectSchema)({
    type: "object",
    ...root,
    ...(Object.keys(definitions).length === 0 ? {} : { $defs: definitions })
  })
}

/**
 * What `structuredContent` may hold: the answer, an error envelope (with the answer's fields beside it
 * for an error that carries them, health while `down`), or for a paid tool the payment requirements.
 * The SDK client checks the structured content of error results too, so each of them must validate.
 */
const outputSchemaOf = (op: AnyOperation): ObjectSchema => {
  const shapes: Array<Schema.Schema.All> = [op.response, ErrorBody]
  if (op.errors.some((errorClass) => carries(errorClass, "report"))) shapes.push(Schema.extend(op.response, ErrorBody))
  if (isPaid(op.cost)) shapes.push(PaymentRequired)
  return jsonSchemaOf(Schema.Union(...shapes))
}

const usdc = (baseUnits: bigint) => {
  const whole = baseUnits / 1_000_000n
  const fraction = (baseUnits % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "")
  return fraction === "" ? `${whole}` : `${whole}.${fraction}`
}

const costLine = (op: AnyOperation) =>
  Effect.gen(function*() {
    switch (op.cost.kind) {
      case "free":
        return "Cost: free."
      case "fixed": {
        const price: bigint = yield* op.cost.price
        return `Cost: ${usdc(price)} USDC (${price} base units) per call, paid with x402. ${PAYMENT_GUIDE}`
      }
      case "fromInput":
        return `Cost: ${op.cost.rule}; the payment requirements state the amount, paid with x402. ${PAYMENT_GUIDE}`
    }
  })

/** Every service a tool call may need: those of the operations, the payment gate and what prices read. */
export type ToolServices = Operation.Context<(typeof operations)[number]> | PaymentGate | CostContext

export interface Tool {
  readonly name: string
  readonly description: string
  readonly inputSchema: ObjectSchema
  readonly outputSchema: ObjectSchema
  readonly call: ToolCall<ToolServices>
}

const toolOf = (op: ServedOperation<ToolServices>, purpose: string) =>
  Effect.map(costLine(op), (cost): Tool => {
    const name = toolNameOf(op)
    return {
      name,
      description: [purpose, cost, NEXT_GUIDE, TRADE_FLOW].join("\n\n"),
      inputSchema: jsonSchemaOf(op.request),
      outputSchema: outputSchemaOf(op),
      call: toolCall(name, op)
    }
  })

export const makeTools: Effect.Effect<ReadonlyArray<Tool>, never, CostContext> = Effect.all(
  operations.flatMap((op) => op.tool === undefined ? [] : [toolOf(op, op.tool.description)])
)

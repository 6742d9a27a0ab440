/**
 * The MCP tools, derived from the operation table: one tool per operation an agent acts with (the
 * OpenAPI document and the registration file describe the service and stay HTTP only). Input and
 * output JSON Schemas are generated from the operation's own Effect schemas, so HTTP and MCP accept
 * and answer exactly the same shapes.
 */
import { Effect, JSONSchema, Schema } from "effect"
import { ErrorBody } from "../../schema/ErrorBody.js"
import { withoutTitles } from "../../schema/JsonSchema.js"
import { PaymentRequired } from "../../schema/Payment.js"
import type { AnyOperation } from "../operations/Operation.js"
import { operations } from "../operations/table.js"
import { NEXT_GUIDE, PAYMENT_GUIDE, toolPurpose, TRADE_FLOW } from "./Descriptions.js"

/** Operations that describe the service itself rather than act on the market. */
const notTools: ReadonlySet<string> = new Set(["openapi", "registration"])

const pascal = (name: string) =>
  name.split(/[-_/]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("")

/** `search` -> `tradeSearch`, `swap-tx` -> `tradeSwapTx`; system operations keep their name. */
export const toolNameOf = (op: AnyOperation): string => op.group === "trade" ? `trade${pascal(op.name)}` : op.name

type JsonObject = Record<string, unknown>

/**
 * A JSON Schema with every definition inlined under its own `$defs`, as MCP wants a self-contained object,
 * without Effect's derived titles (schema/JsonSchema.ts).
 */
const jsonSchemaOf = (schema: Schema.Schema.Any): JsonObject => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const root = JSONSchema.fromAST(schema.ast, {
    definitions,
    topLevelReferenceStrategy: "skip"
  }) as unknown as JsonObject
  return withoutTitles(Object.keys(definitions).length === 0 ? root : { ...root, $defs: definitions }) as JsonObject
}

const NoArguments = Schema.Struct({})

/**
 * What `structuredContent` may hold: the answer, an error envelope (with the answer's fields for an
 * answer that is also a refusal), or for a paid tool the payment requirements. The SDK client checks
 * the structured content of error results too, so each of them must validate.
 */
const outputSchemaOf = (op: AnyOperation, paid: boolean): JsonObject => {
  const shapes: Array<Schema.Schema.Any> = [op.response, ErrorBody]
  if (op.refusal !== undefined) shapes.push(op.refusal.schema)
  if (paid) shapes.push(PaymentRequired)
  return { type: "object", ...jsonSchemaOf(Schema.Union(...shapes)) }
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

export interface Tool {
  readonly name: string
  readonly description: string
  readonly inputSchema: JsonObject
  readonly outputSchema: JsonObject
  readonly operation: AnyOperation
  /** The arguments' schema: the request, or an empty object for an operation without one. */
  readonly request: Schema.Schema<any, any>
}

export const makeTools = Effect.gen(function*() {
  const tools: Array<Tool> = []
  for (const op of operations as ReadonlyArray<AnyOperation>) {
    if (notTools.has(op.name)) continue
    const name = toolNameOf(op)
    const request = op.request ?? NoArguments
    const cost = yield* costLine(op)
    tools.push({
      name,
      description: [toolPurpose[name] ?? op.summary, cost, NEXT_GUIDE, TRADE_FLOW].join("\n\n"),
      inputSchema: { type: "object", ...jsonSchemaOf(request) },
      outputSchema: outputSchemaOf(op, op.cost.kind !== "free"),
      operation: op,
      request
    })
  }
  return tools as ReadonlyArray<Tool>
})

/**
 * The x402 `bazaar` discovery extension of a paid operation's offer, built from the operation table:
 * how to call it (HTTP method and JSON body, or MCP tool and its arguments) and what it answers, with
 * a JSON Schema (draft 2020-12) of that `info` whose body is the operation's own request schema, so
 * discovery services can list every paid operation as it is. An example body is drawn from the request
 * schema's examples and defaults. The answer is named by its response schema's identifier in the
 * OpenAPI document rather than inlined: the offer travels in a header, and a response schema (a quote's
 * runs to tens of kilobytes) would overflow what HTTP clients accept. Built once per operation (or tool).
 */
import { JSONSchema, Option, type Schema, SchemaAST as AST } from "effect"
import type { AnyOperation } from "./Declare.js"

type JsonObject = Record<string, unknown>

export const BAZAAR = "bazaar"

/**
 * Effect marks some generated schemas with a fixed `$id` (`/schemas/unknown`, …); one document may hold
 * several, which validators refuse as one id naming two schemas. Nothing refers to them: they go.
 */
const withoutIds = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutIds)
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== "$id").map(([key, v]) => [key, withoutIds(v)]))
    : value

/** The request's schema, with its definitions to put at the root of the extension's schema. */
const requestSchemaOf = (request: Schema.Schema.Any) => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const input = JSONSchema.fromAST(request.ast, { definitions, topLevelReferenceStrategy: "skip" })
  return withoutIds({ input, definitions }) as { readonly input: JsonObject; readonly definitions: JsonObject }
}

/** What the operation answers: JSON of its response schema, by its name in the OpenAPI document. */
const outputOf = (op: AnyOperation): JsonObject => {
  const name = AST.getIdentifierAnnotation(op.response.ast).pipe(Option.getOrUndefined)
  return { type: "json", ...(name === undefined ? {} : { format: `${name} (/openapi.json)` }) }
}

/** An example of a value of `schema`: its first example or its default; objects field by field. */
const exampleOf = (schema: JsonObject, definitions: JsonObject): unknown => {
  const ref = schema["$ref"]
  if (typeof ref === "string") {
    return exampleOf((definitions[ref.split("/").pop() ?? ""] ?? {}) as JsonObject, definitions)
  }
  const examples = schema["examples"]
  if (Array.isArray(examples) && examples.length > 0) return examples[0]
  if ("default" in schema) return schema["default"]
  const properties = schema["properties"]
  if (typeof properties !== "object" || properties === null) return undefined
  return Object.fromEntries(
    Object.entries(properties as Record<string, JsonObject>).flatMap(([name, property]) => {
      const example = exampleOf(property, definitions)
      return example === undefined ? [] : [[name, example]]
    })
  )
}

const extension = (
  info: { readonly input: JsonObject; readonly output: JsonObject },
  inputSchema: JsonObject,
  definitions: JsonObject
) => ({
  [BAZAAR]: {
    info,
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        input: inputSchema,
        output: {
          type: "object",
          properties: { type: { type: "string", const: "json" }, format: { type: "string" } },
          required: ["type"]
        }
      },
      required: ["input"],
      ...(Object.keys(definitions).length === 0 ? {} : { $defs: definitions })
    }
  }
})

const httpExtensions = new WeakMap<AnyOperation, JsonObject>()

/** The offer's `extensions` for `op` served over HTTP: `POST` with a JSON body (or `GET`). */
export const httpDiscovery = (op: AnyOperation): JsonObject => {
  const known = httpExtensions.get(op)
  if (known !== undefined) return known
  const { definitions, input } = requestSchemaOf(op.request)
  // A `GET` operation takes no body.
  const body = op.method === "GET" ? undefined : exampleOf(input, definitions) ?? {}
  const built = extension(
    {
      input: body === undefined
        ? { type: "http", method: op.method }
        : { type: "http", method: op.method, bodyType: "json", body },
      output: outputOf(op)
    },
    {
      type: "object",
      properties: {
        type: { type: "string", const: "http" },
        method: { type: "string", const: op.method },
        ...(body === undefined ? {} : { bodyType: { type: "string", const: "json" }, body: input })
      },
      required: body === undefined ? ["type", "method"] : ["type", "method", "bodyType", "body"],
      additionalProperties: false
    },
    definitions
  )
  httpExtensions.set(op, built)
  return built
}

const mcpExtensions = new Map<string, JsonObject>()

/** The offer's `extensions` for the MCP tool `tool` of `op`, with the input schema the tool declares. */
export const mcpDiscovery = (
  op: AnyOperation,
  tool: { readonly name: string; readonly inputSchema: JsonObject }
): JsonObject => {
  const known = mcpExtensions.get(tool.name)
  if (known !== undefined) return known
  const example = exampleOf(tool.inputSchema, (tool.inputSchema["$defs"] ?? {}) as JsonObject)
  const built = extension(
    {
      input: {
        type: "mcp",
        tool: tool.name,
        description: op.summary,
        transport: "streamable-http",
        inputSchema: tool.inputSchema,
        ...(example === undefined ? {} : { example })
      },
      output: outputOf(op)
    },
    {
      type: "object",
      properties: {
        type: { type: "string", const: "mcp" },
        tool: { type: "string", const: tool.name },
        description: { type: "string" },
        transport: { type: "string", enum: ["streamable-http", "sse"] },
        inputSchema: { type: "object" },
        example: { type: "object" }
      },
      required: ["type", "tool", "inputSchema"],
      additionalProperties: false
    },
    {}
  )
  mcpExtensions.set(tool.name, built)
  return built
}

/**
 * The tools' JSON Schemas as a strict MCP client reads them (MCP Inspector's `--strict`, hosts that
 * compile them with a strict validator): every schema says what it accepts with at least one keyword,
 * and none carries a title derived from an Effect refinement (`between(1, 25)`, `maxLength(128)`).
 * Listed with the SDK client from a service that needs no chain to list its tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { offlineDeployment, startTestServer, type TestServer } from "../support/http.js"

let server: TestServer
let tools: ReadonlyArray<Tool>
beforeAll(async () => {
  server = await startTestServer(offlineDeployment)
  const client = new Client({ name: "schema-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/trade/v1/mcp`)))
  tools = (await client.listTools()).tools
  await client.close()
})
afterAll(() => server?.close())

/** Keywords that say what a schema accepts; a schema with none of them accepts anything, silently. */
const KEYWORDS = ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not"]
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs"])
const SUBSCHEMAS = new Set(["items", "additionalProperties", "not", "contains", "propertyNames"])
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"])

/** Every `[path, schema]` inside `schema`, itself included, following only schema-valued keywords. */
const schemas = function*(schema: any, path: string): Generator<readonly [string, any]> {
  yield [path, schema]
  if (schema === null || typeof schema !== "object") return
  for (const [key, value] of Object.entries<any>(schema)) {
    if (SCHEMA_MAPS.has(key)) {
      for (const [name, sub] of Object.entries(value)) yield* schemas(sub, `${path}.${key}.${name}`)
    } else if (SCHEMA_LISTS.has(key)) {
      for (const [i, sub] of value.entries()) yield* schemas(sub, `${path}.${key}[${i}]`)
    } else if (SUBSCHEMAS.has(key)) yield* schemas(value, `${path}.${key}`)
  }
}

const everySchema = () =>
  tools.flatMap((tool) => [
    ...schemas(tool.inputSchema, `${tool.name}.inputSchema`),
    ...(tool.outputSchema === undefined ? [] : schemas(tool.outputSchema, `${tool.name}.outputSchema`))
  ])

describe("tool schemas", () => {
  it("every schema, `additionalProperties` included, states what it accepts with a keyword", () => {
    const all = everySchema()
    expect(all.length).toBeGreaterThan(100)
    const vague = all.filter(([, schema]) =>
      typeof schema !== "boolean" && !KEYWORDS.some((keyword) => keyword in schema)
    ).map(([path]) => path)
    expect(vague).toEqual([])
  })

  it("no schema carries a title", () => {
    const titled = everySchema().filter(([, schema]) => typeof schema?.title === "string")
    expect(titled.map(([path, schema]) => `${path}: ${schema.title}`)).toEqual([])
    const search = tools.find((tool) => tool.name === "tradeSearch")!
    expect(search.inputSchema.properties?.["limit"]).toMatchObject({ type: "integer", minimum: 1, maximum: 25 })
  })
})

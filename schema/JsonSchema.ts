/**
 * The JSON Schemas the service publishes (the OpenAPI document, MCP tool schemas) carry no `title`.
 * The service documents its fields with `description`; Effect derives titles from its refinements'
 * names (`between(1, 25)`, `maxLength(128)`, `int`), which read as noise to people and to models.
 */

type Json = unknown

/** Keywords whose value is a map from names to schemas: the names are data, the schemas are walked. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"])
/** Keywords whose value is data, never a schema. */
const DATA = new Set(["enum", "const", "default", "examples", "example", "required"])

/** `schema` and every schema inside it, without `title`. */
export const withoutTitles = (schema: Json): Json => {
  if (Array.isArray(schema)) return schema.map(withoutTitles)
  if (schema === null || typeof schema !== "object") return schema
  const out: Record<string, Json> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === "title" && typeof value === "string") continue
    if (DATA.has(key)) out[key] = value
    else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutTitles(sub)]))
    } else out[key] = withoutTitles(value)
  }
  return out
}

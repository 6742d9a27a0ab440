/**
 * The served OpenAPI 3.1 document, generated from the contract in `Api.ts`, with the configured
 * price of each fixed-price operation in its `x-price`.
 */
import { OpenApi } from "@effect/platform"
import { Effect } from "effect"
import type { AppConfig } from "../../layers/AppConfig.js"
import { operations } from "../operations/table.js"
import { Api } from "./Api.js"

/** A part of the document, read without trusting its shape. */
type Json = { readonly [key: string]: unknown }

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)
const at = (json: Json, ...keys: ReadonlyArray<string>): Json =>
  keys.reduce<Json>((inner, key) => {
    const value = inner[key]
    return isJson(value) ? value : {}
  }, json)

const BUILTIN_DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"

/** A 400 answer's schema without HttpApi's own decode error among its alternatives. */
const withoutDecodeError = (operation: Json): Json => {
  const content = at(operation, "responses", "400", "content", "application/json")
  const alternatives = at(content, "schema")["anyOf"]
  if (!Array.isArray(alternatives)) return operation
  const kept = alternatives.filter((entry) => !isJson(entry) || entry["$ref"] !== BUILTIN_DECODE_ERROR)
  const responses = at(operation, "responses")
  return {
    ...operation,
    responses: {
      ...responses,
      "400": {
        ...at(responses, "400"),
        content: { "application/json": { ...content, schema: kept.length === 1 ? kept[0] : { anyOf: kept } } }
      }
    }
  }
}

const mapValues = (json: Json, f: (value: Json) => Json): Json =>
  Object.fromEntries(Object.entries(json).map(([key, value]) => [key, isJson(value) ? f(value) : value]))

/**
 * HttpApi documents its own decode error on every endpoint, but this service never answers with it
 * (the edge words bad bodies as `invalid_request`), so its references, and the components only it
 * used, go.
 */
const withoutBuiltinDecodeError = (document: Json): Json => {
  const paths = mapValues(at(document, "paths"), (item) => mapValues(item, withoutDecodeError))
  const schemas: Record<string, unknown> = { ...at(document, "components", "schemas") }
  delete schemas["HttpApiDecodeError"]
  // Prune components nothing refers to any more, until none is left to prune.
  for (;;) {
    const text = JSON.stringify({ ...document, paths, components: {} }) + JSON.stringify(Object.values(schemas))
    const unused = Object.keys(schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`))
    if (unused.length === 0) return { ...document, paths, components: { ...at(document, "components"), schemas } }
    for (const name of unused) delete schemas[name]
  }
}

const generated = withoutBuiltinDecodeError({ ...OpenApi.fromApi(Api) })

/** The configured price of every fixed-price operation, by path and lower-case method. */
export const fixedPrices: Effect.Effect<ReadonlyArray<readonly [string, string, bigint]>, never, AppConfig> = Effect
  .all(
    operations.flatMap((op) =>
      op.cost.kind === "fixed"
        ? [Effect.map(op.cost.price, (price) => [op.path, op.method.toLowerCase(), price] as const)]
        : []
    )
  )

export const openApiDocument = (baseUrl: string, prices: ReadonlyArray<readonly [string, string, bigint]>): Json => {
  const paths: Record<string, unknown> = { ...at(generated, "paths") }
  for (const [path, method, price] of prices) {
    const item = at(paths, path)
    const operation = at(item, method)
    paths[path] = {
      ...item,
      [method]: { ...operation, "x-price": { ...at(operation, "x-price"), amount: String(price) } }
    }
  }
  return { ...generated, paths, servers: [{ url: baseUrl }] }
}

/**
 * The served OpenAPI 3.1 document, generated from the contract in `Api.ts`, with the configured
 * price of each fixed-price operation in its `x-price` and the service's address as `servers` and
 * `info.contact`.
 */
import { OpenApi } from "@effect/platform"
import { Effect } from "effect"
import type { AppConfig } from "../../layers/AppConfig.js"
import { withoutTitles } from "../../schema/JsonSchema.js"
import { SERVICE_NAME } from "../../schema/Service.js"
import { operations } from "../operations/table.js"
import { TradeApi } from "./Api.js"

type Json = { [key: string]: any }

const BUILTIN_DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"

/**
 * HttpApi documents its own decode error on every endpoint, but this service never answers with it
 * (bad bodies become `invalid_request`), so its references, and the components only it used, go.
 */
const withoutBuiltinDecodeError = (document: Json): Json => {
  const cleaned = structuredClone(document)
  for (const item of Object.values<Json>(cleaned.paths)) {
    for (const operation of Object.values<Json>(item)) {
      const content = operation.responses?.["400"]?.content?.["application/json"]
      if (content?.schema?.anyOf) {
        const kept = content.schema.anyOf.filter((entry: Json) => entry.$ref !== BUILTIN_DECODE_ERROR)
        content.schema = kept.length === 1 ? kept[0] : { anyOf: kept }
      }
    }
  }
  const schemas: Json = cleaned.components.schemas
  delete schemas["HttpApiDecodeError"]
  // Prune components nothing refers to any more, until none is left to prune.
  for (;;) {
    const text = JSON.stringify({ ...cleaned, components: { ...cleaned.components, schemas: {} } }) +
      JSON.stringify(Object.values(schemas))
    const unused = Object.keys(schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`))
    if (unused.length === 0) return cleaned
    for (const name of unused) delete schemas[name]
  }
}

/** Schemas without the titles Effect derives from refinements (schema/JsonSchema.ts). */
const withoutSchemaTitles = (document: Json): Json => ({
  ...document,
  paths: withoutTitles(document.paths),
  components: withoutTitles(document.components)
})

const generated = withoutSchemaTitles(withoutBuiltinDecodeError(OpenApi.fromApi(TradeApi)))

/** The configured price of every fixed-price operation, by path and lower-case method. */
export const fixedPrices: Effect.Effect<ReadonlyArray<readonly [string, string, bigint]>, never, AppConfig> = Effect
  .all(
    operations.flatMap((op) =>
      op.cost.kind === "fixed"
        ? [Effect.map(op.cost.price, (price) => [op.path, op.method.toLowerCase(), price] as const)]
        : []
    )
  )

export const openApiDocument = (
  baseUrl: string,
  prices: ReadonlyArray<readonly [string, string, bigint]>
): Json => {
  const paths: Json = { ...generated.paths }
  for (const [path, method, price] of prices) {
    const operation = paths[path][method]
    paths[path] = {
      ...paths[path],
      [method]: { ...operation, "x-price": { ...operation["x-price"], amount: String(price) } }
    }
  }
  const info = {
    ...generated.info,
    // The operator answers for the service at its own address.
    contact: { name: `${SERVICE_NAME} operator`, url: baseUrl },
    // Not published under an open licence (package.json is private): an SPDX reference of its own.
    license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" }
  }
  return { ...generated, info, paths, servers: [{ url: baseUrl }] }
}

/**
 * The served OpenAPI 3.1 document, generated from the contract in `Api.ts`.
 */
import { OpenApi } from "@effect/platform"
import { TradeApi } from "./Api.js"

const generated = OpenApi.fromApi(TradeApi)

// HttpApi documents its own decode error on every endpoint; this service never answers with it
// (bodies are decoded into `invalid_request`), so it is removed from the document.
const withoutBuiltinDecodeError = (document: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const text = JSON.stringify(document)
  if (!text.includes("HttpApiDecodeError")) return document
  const cleaned = JSON.parse(text) as { components: { schemas: Record<string, unknown> }; paths: Record<string, any> }
  delete cleaned.components.schemas["HttpApiDecodeError"]
  for (const item of Object.values(cleaned.paths)) {
    for (const operation of Object.values(item as Record<string, any>)) {
      const bad = operation?.responses?.["400"]?.content?.["application/json"]?.schema
      if (bad?.anyOf) {
        bad.anyOf = bad.anyOf.filter((ref: { $ref?: string }) => ref.$ref !== "#/components/schemas/HttpApiDecodeError")
        if (bad.anyOf.length === 1) operation.responses["400"].content["application/json"].schema = bad.anyOf[0]
      }
    }
  }
  return cleaned as unknown as OpenApi.OpenAPISpec
}

export const openApiDocument = (baseUrl: string): Readonly<Record<string, unknown>> => ({
  ...withoutBuiltinDecodeError(generated),
  servers: [{ url: baseUrl }]
})

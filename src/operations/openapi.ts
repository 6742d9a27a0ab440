/**
 * `openapi`: the OpenAPI document of the service. The document is derived from the operation table
 * by the HTTP edge, so the operation asks for it through `ApiDocument` (provided by src/http/) instead
 * of importing the edge back.
 */
import { Context, Effect } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"

export class ApiDocument extends Context.Tag("ApiDocument")<ApiDocument, {
  /** The document with `servers` pointing at `baseUrl`. */
  readonly forBaseUrl: (baseUrl: string) => Readonly<Record<string, unknown>>
}>() {}

export const openapi = Effect.fn("openapi")(function*() {
  const config = yield* AppConfig
  const document = yield* ApiDocument
  return document.forBaseUrl(AppConfig.baseUrl(config))
})

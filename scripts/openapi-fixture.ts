/**
 * `npm run openapi:fixture`: writes the OpenAPI document as the service serves it with its default
 * settings (the default prices, at http://127.0.0.1:8080) to test/http/fixtures/openapi.json.
 * test/http/openapi.test.ts fails on any difference, so a change to the contract is a reviewed diff of
 * that file: run this after changing an operation, a schema or an error on purpose.
 */
import { ConfigProvider, Effect, Layer } from "effect"
import { writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { AppConfig } from "../layers/AppConfig.js"
import { fixedPrices, openApiDocument } from "../src/http/OpenApiDocument.js"

export const FIXTURE = resolve(import.meta.dirname, "..", "test", "http", "fixtures", "openapi.json")

/** The document, as text with a final newline, from the defaults alone (the environment is not read). */
export const fixtureText = Effect.map(fixedPrices, (prices) => {
  const document = openApiDocument("http://127.0.0.1:8080", prices)
  return `${JSON.stringify(document, null, 2)}\n`
}).pipe(
  Effect.provide(AppConfig.Default),
  Effect.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
)

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  writeFileSync(FIXTURE, Effect.runSync(fixtureText))
  console.log(`wrote ${FIXTURE}`)
}

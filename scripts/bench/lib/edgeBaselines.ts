/**
 * The two yardsticks `npm run bench -- edge` holds the service against, each run as its own process:
 *
 * - `httpapi`: a minimal `@effect/platform` HttpApi server on the project's pinned packages, the way
 *   the platform's own example builds one (one group, payloads decoded by HttpApi, a typed error with
 *   its status, `NodeHttpServer.layer` on a plain `createServer`);
 * - `node`: a bare `node:http` server answering the same three requests by hand.
 *
 * Both answer what the benchmark sends: `GET /health` 200, an unpaid `POST /trade/v1/search` 402, and a
 * `POST /trade/v1/receipt` whose body fails its schema 400. Usage: `edgeBaselines.ts httpapi|node PORT`.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { createServer } from "node:http"

const [kind, portText] = process.argv.slice(2)
const port = Number(portText)

const healthBody = { status: "ok", chainId: 5042, headBlock: 1, version: "bench" }
const unpaidBody = { error: "payment_required", message: "this call costs 5000 USDC base units", next: "pay" }
const badBody = { error: "invalid_request", message: "the request body does not match its schema", next: "fix" }

class Unpaid extends Schema.TaggedError<Unpaid>()("Unpaid", {
  error: Schema.String,
  message: Schema.String,
  next: Schema.String
}, HttpApiSchema.annotations({ status: 402 })) {}

class BenchApi extends HttpApi.make("bench").add(
  HttpApiGroup.make("bench")
    .add(
      HttpApiEndpoint.get("health", "/health").addSuccess(Schema.Struct({
        status: Schema.String,
        chainId: Schema.Number,
        headBlock: Schema.Number,
        version: Schema.String
      }))
    )
    .add(
      HttpApiEndpoint.post("search", "/trade/v1/search")
        .setPayload(Schema.Struct({ query: Schema.String, limit: Schema.optional(Schema.Number) }))
        .addSuccess(Schema.Struct({ results: Schema.Array(Schema.String) }))
        .addError(Unpaid)
    )
    .add(
      HttpApiEndpoint.post("receipt", "/trade/v1/receipt")
        .setPayload(Schema.Struct({
          quoteId: Schema.String.pipe(Schema.pattern(/^q_[0-9a-f]{32}$/)),
          txHashes: Schema.Array(Schema.String).pipe(Schema.minItems(1))
        }))
        .addSuccess(Schema.Struct({ result: Schema.String }))
    )
) {}

const BenchHandlers = HttpApiBuilder.group(BenchApi, "bench", (handlers) =>
  handlers
    .handle("health", () => Effect.succeed(healthBody))
    .handle("search", () => Effect.fail(new Unpaid(unpaidBody)))
    .handle("receipt", () => Effect.succeed({ result: "pass" })))

const minimalHttpApi = HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.api(BenchApi).pipe(Layer.provide(BenchHandlers))),
  Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" }))
)

const json = (status: number, body: object) => {
  const text = JSON.stringify(body)
  return {
    status,
    text,
    headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }
  }
}

const bareNode = () =>
  createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const answer = request.url === "/health"
        ? json(200, healthBody)
        : request.url === "/trade/v1/search"
        ? json(402, unpaidBody)
        : json(400, badBody)
      response.writeHead(answer.status, answer.headers).end(answer.text)
    })
  }).listen(port, "127.0.0.1")

if (kind === "httpapi") Layer.launch(minimalHttpApi).pipe(NodeRuntime.runMain)
else if (kind === "node") bareNode()
else throw new Error(`unknown baseline ${kind}: use httpapi or node`)

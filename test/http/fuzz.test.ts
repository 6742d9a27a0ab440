/**
 * Property-based fuzzing of the HTTP edge on the shared devnet (issue 8's acceptance): a few hundred
 * seeded cases over every mounted path and method with hostile bodies and headers, and raw protocol
 * errors on bare sockets. Every answer must be under 500, carry `X-Request-Id` and `nosniff`, and
 * carry the error envelope when it is an error. A longer run: `npm run bench -- edge`.
 */
import { Layer } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Deployment } from "../../layers/Deployment.js"
import { sharedManifest } from "../support/devnet.js"
import { httpCase, httpViolation, mountedEndpoints, rawCase, rawViolation } from "../support/fuzz.js"
import { readJson, startTestServer, type TestServer } from "../support/http.js"

const SEED = 8402
let server: TestServer
let port = 0

beforeAll(async () => {
  server = await startTestServer(Layer.succeed(Deployment, Deployment.make(sharedManifest())))
  port = Number(new URL(server.baseUrl).port)
  for (let attempt = 0; attempt < 300; attempt++) {
    if ((await readJson(await fetch(`${server.baseUrl}/health`))).status === "ok") return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("the index did not catch up within 30 s")
})
afterAll(() => server.close())

describe("fuzzing the HTTP edge", () => {
  it("knows every mounted endpoint", () => {
    expect(mountedEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual(
      expect.arrayContaining(["GET /health", "POST /trade/v1/search", "GET /trade/v1/venues"])
    )
  })

  it("well-formed HTTP with any method, path, headers and body: no 5xx, an id and an envelope", async () => {
    await fc.assert(
      fc.asyncProperty(httpCase, async (sent) => {
        expect(await httpViolation(server.baseUrl, sent), `${sent.method} ${sent.path}`).toBeUndefined()
      }),
      { seed: SEED, numRuns: 400 }
    )
  })

  it("raw protocol errors on bare sockets: every answer well formed", async () => {
    await fc.assert(
      fc.asyncProperty(rawCase, async (sent) => {
        expect(await rawViolation(port, sent), JSON.stringify(Buffer.from(sent.bytes).toString("latin1").slice(0, 200)))
          .toBeUndefined()
      }),
      { seed: SEED, numRuns: 300 }
    )
  })
})

/**
 * The served OpenAPI document as API tooling reads it: Redocly's recommended rules and Spectral's
 * `spectral:oas` ruleset (the repository's `.spectral.yaml`) find nothing, not even a warning. Also what
 * a reader of the document sees: no schema titles derived from refinements, no union listing one
 * member twice, and a registration file whose `image` is served.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { offlineDeployment, readJson, startTestServer, type TestServer } from "../support/http.js"

const run = promisify(execFile)

let server: TestServer
let dir: string
let file: string
let document: any
beforeAll(async () => {
  server = await startTestServer(offlineDeployment)
  document = await readJson(await fetch(`${server.baseUrl}/openapi.json`))
  dir = mkdtempSync(join(tmpdir(), "openapi-lint-"))
  file = join(dir, "openapi.json")
  writeFileSync(file, JSON.stringify(document, null, 2))
})
afterAll(async () => {
  await server?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/** No telemetry, update checks or notices: the linters read a local file and nothing else. */
const quiet = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" }

/** Runs a linter that may exit non-zero on findings; its JSON report is on stdout either way. */
const lint = async (command: string, args: ReadonlyArray<string>): Promise<string> => {
  try {
    return (await run(join("node_modules", ".bin", command), args, { maxBuffer: 16 * 1024 * 1024, env: quiet })).stdout
  } catch (failure) {
    const stdout = (failure as { stdout?: string }).stdout
    if (stdout === undefined || stdout === "") throw failure
    return stdout
  }
}

/** Every `[path, node]` of a JSON value. */
const nodes = function*(value: unknown, path = "#"): Generator<readonly [string, any]> {
  yield [path, value]
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) yield* nodes(child, `${path}/${key}`)
  }
}

describe("the OpenAPI document, linted", () => {
  it("Redocly (recommended rules): no error, no warning", async () => {
    const report = JSON.parse(await lint("redocly", ["lint", "--format=json", file]))
    expect(report.problems.map((p: any) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  }, 60_000)

  it("Spectral (spectral:oas): no error, no warning", async () => {
    const findings = JSON.parse(
      await lint("spectral", ["lint", "--ruleset", ".spectral.yaml", "--format=json", "--quiet", file])
    )
    expect(findings.map((f: any) => `${f.code}: ${f.message} at ${f.path.join(".")}`)).toEqual([])
  }, 60_000)

  it("names, licence and contact are set, and every operation is described", () => {
    expect(document.info.license).toMatchObject({ name: expect.any(String), identifier: expect.any(String) })
    expect(document.info.contact).toEqual({ name: "Trade checkpoint operator", url: document.servers[0].url })
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const operation of Object.values(item)) expect(operation.description, path).toMatch(/\w{3,}/)
    }
  })

  it("schemas carry no titles (Effect's `between(1, 25)`, `int`), only the document's own", () => {
    const titles = [...nodes(document)].filter(([, node]) => typeof node?.title === "string").map(([path]) => path)
    expect(titles).toEqual(["#/info"])
  })

  it("no union lists a member twice (swap's 502)", () => {
    for (const [path, node] of nodes(document)) {
      if (!Array.isArray(node?.anyOf)) continue
      const members = node.anyOf.map((member: unknown) => JSON.stringify(member))
      expect(new Set(members).size, path).toBe(members.length)
    }
    const swap502 = document.paths["/trade/v1/swap"].post.responses["502"].content["application/json"].schema
    expect(swap502).toEqual({ $ref: "#/components/schemas/Error_payment_unavailable" })
  })
})

describe("the registration file's image", () => {
  it("is served: a small SVG at the path the registration names", async () => {
    const registration = await readJson(await fetch(`${server.baseUrl}/.well-known/agent-registration.json`))
    const image = new URL(registration.image)
    expect(image.pathname).toBe("/favicon.svg")
    const response = await fetch(`${server.baseUrl}${image.pathname}`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("image/svg+xml")
    const svg = await response.text()
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/s)
    expect(svg.length).toBeLessThan(4096)
  })
})

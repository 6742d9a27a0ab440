/**
 * Generators of hostile traffic for the HTTP edge, and the runners that send it: well-formed HTTP with
 * any method, path, headers and body (through `node:http`, as a client library would send it), and
 * raw bytes on a socket for everything a client library refuses to send. The fuzz test runs them a
 * few hundred times in `npm test`; `npm run bench -- edge` runs them for longer.
 * Longer than most: the HTTP and the raw-socket generators share their vocabulary of paths and headers.
 */
import { HttpApi } from "@effect/platform"
import fc from "fast-check"
import { request } from "node:http"
import { Api } from "../../src/http/Api.js"
import { exchange, type RawAnswer, violationOf } from "./rawHttp.js"

/** Every mounted endpoint, read from the contract itself so a new endpoint is fuzzed too. */
export const mountedEndpoints: ReadonlyArray<{ readonly method: string; readonly path: string }> = (() => {
  const found: Array<{ method: string; path: string }> = []
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => void found.push({ method: endpoint.method, path: endpoint.path })
  })
  return found
})()

const mountedPaths = mountedEndpoints.map((endpoint) => endpoint.path)

const printable = (maxLength: number) => fc.string({ unit: "grapheme-ascii", maxLength })

const method = fc.oneof(
  fc.constantFrom(...new Set(mountedEndpoints.map((endpoint) => endpoint.method))),
  fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"),
  fc.stringMatching(/^[A-Z][A-Z_-]{0,11}$/).filter((m) => m !== "CONNECT")
)

const path = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...mountedPaths) },
  fc.tuple(fc.constantFrom(...mountedPaths), printable(40)).map(([p, query]) => `${p}?${encodeURIComponent(query)}`),
  fc.tuple(fc.constantFrom(...mountedPaths), printable(20)).map(([p, tail]) => `${p}/${encodeURIComponent(tail)}`),
  fc.webPath(),
  fc.constantFrom("/", "//health", "/health/", "/HEALTH", "/trade/v1/", "/trade/v1/search/..", "/%00", "/%ff")
)

const nestedArray = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`

const body = fc.oneof(
  fc.constant(undefined),
  fc.record({ query: fc.string({ maxLength: 140 }), limit: fc.option(fc.integer({ min: -3, max: 40 })) })
    .map((search) => JSON.stringify(search)),
  fc.json({ maxDepth: 4 }),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `{"query":${nestedArray(depth)}}`),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => nestedArray(depth)),
  fc.integer({ min: 1, max: 70_000 }).map((size) => JSON.stringify({ query: "x".repeat(size) })),
  fc.integer({ min: 1, max: 70_000 }).map((size) => JSON.stringify({ ["k".repeat(size)]: 1 })),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes))
)

const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      ""
    ),
    printable(60)
  ),
  { nil: undefined }
)

export interface HttpCase {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Buffer | undefined
}

const headersOf = (
  { accept, contentType, extra, requestId }: {
    readonly accept: string | undefined
    readonly contentType: string | undefined
    readonly extra: Readonly<Record<string, string>>
    readonly requestId: string | undefined
  }
): Readonly<Record<string, string>> => ({
  ...extra,
  ...(contentType === undefined ? {} : { "content-type": contentType }),
  ...(requestId === undefined ? {} : { "x-request-id": requestId }),
  ...(accept === undefined ? {} : { accept })
})

const otherHeaders = {
  requestId: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,140}$/), printable(140)), { nil: undefined }),
  accept: fc.option(fc.constantFrom("application/json", "text/html", "*/*", "application/xml"), { nil: undefined }),
  extra: fc.dictionary(fc.stringMatching(/^x-[a-z-]{1,20}$/), printable(200), { maxKeys: 4 })
}

/** Anything: any method on any path with any headers and body. */
const wildCase: fc.Arbitrary<HttpCase> = fc.record({ method, path, body, contentType, ...otherHeaders }).map((
  { body, method, path, ...headers }
) => ({
  method,
  path,
  // Node's client sends a HEAD body unframed, so it would be read as a second request; raw cases cover that.
  body: method === "HEAD" ? undefined : body,
  headers: headersOf(headers)
}))

/** Aimed past the router and the media-type check: a mounted endpoint, its method, a JSON content type. */
const aimedCase: fc.Arbitrary<HttpCase> = fc.record({
  endpoint: fc.constantFrom(...mountedEndpoints),
  body,
  contentType: fc.constantFrom("application/json", "application/json; charset=utf-8"),
  ...otherHeaders
}).map(({ body, endpoint, ...headers }) => ({
  method: endpoint.method,
  path: endpoint.path,
  body: endpoint.method === "HEAD" ? undefined : body,
  headers: headersOf(headers)
}))

export const httpCase: fc.Arbitrary<HttpCase> = fc.oneof(wildCase, aimedCase)

/**
 * Sends one case with `node:http` on a connection of its own (a shared keep-alive socket would let one
 * case's leftovers be read as the next one's answer) and reads the whole answer (10 s at most).
 */
export const sendHttp = (baseUrl: string, sent: HttpCase): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const outgoing = request(
      `${baseUrl}${sent.path}`,
      {
        method: sent.method,
        headers: sent.headers,
        timeout: 10_000,
        agent: false
      },
      (
        response
      ) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, String(value)])),
            body: Buffer.concat(chunks).toString("utf8")
          }))
        response.on("error", reject)
      }
    )
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer to ${sent.method} ${sent.path} in 10 s`)))
    outgoing.on("error", reject)
    outgoing.end(sent.body)
  })

const headerLines = fc.array(
  fc.tuple(fc.string({ unit: "binary-ascii", maxLength: 20 }), fc.string({ unit: "binary-ascii", maxLength: 40 }))
    .map(([name, value]) => `${name}: ${value}\r\n`),
  { maxLength: 4 }
)

const framing = fc.constantFrom(
  "",
  "content-length: 5\r\n",
  "content-length: -1\r\n",
  "content-length: 2\r\ncontent-length: 3\r\n",
  "content-length: 99999999999\r\n",
  "content-length: 0x10\r\n",
  "transfer-encoding: chunked\r\n",
  "transfer-encoding: identity\r\n",
  "transfer-encoding: gzip, chunked\r\n",
  "content-length: 5\r\ntransfer-encoding: chunked\r\n",
  "expect: 100-continue\r\ncontent-length: 2\r\n",
  "expect: nothing-you-can-do\r\n",
  "content-type: application/json\r\ncontent-length: 16\r\n",
  `x-big: ${"a".repeat(17_000)}\r\n`
)

const rawBody = fc.oneof(
  fc.constant(""),
  fc.constant("0\r\n\r\n"),
  fc.constant("zz\r\n{}\r\n0\r\n\r\n"),
  fc.constant("{\"query\":\"WETH\"}"),
  fc.string({ unit: "binary", maxLength: 100 })
)

export interface RawCase {
  readonly bytes: string | Uint8Array
  /** The request method, when the case has a request line: HEAD answers carry no body. */
  readonly head: boolean
}

export const rawCase: fc.Arbitrary<RawCase> = fc.oneof(
  fc.record({
    method: fc.oneof(fc.constantFrom("GET", "POST", "HEAD", "CONNECT", "OPTIONS", "PRI"), fc.string({ maxLength: 10 })),
    target: fc.oneof(
      fc.constantFrom(...mountedPaths, "*", "http://x/health", "/h\u00e9alth", "example.com:443"),
      fc.string({ unit: "binary", maxLength: 50 })
    ),
    version: fc.constantFrom("HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1x", "", "http/1.1"),
    host: fc.constantFrom("host: x\r\n", ""),
    headers: headerLines,
    framing,
    body: rawBody
  }).map((parts) => ({
    bytes: `${parts.method} ${parts.target} ${parts.version}\r\n${parts.host}${
      parts.headers.join("")
    }${parts.framing}\r\n${parts.body}`,
    head: parts.method === "HEAD"
  })),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({ bytes, head: false }))
)

/** Sends a raw case on its own connection; a violation of the answer rules, or undefined. */
export const rawViolation = async (port: number, sent: RawCase): Promise<string | undefined> => {
  const { answers, garbage } = await exchange(port, sent.bytes, { waitMs: 8_000, head: sent.head })
  if (garbage !== "") return `output that is not an HTTP answer: ${JSON.stringify(garbage.slice(0, 120))}`
  for (const [i, answer] of answers.entries()) {
    const violation = violationOf(answer, { head: sent.head && i === 0 })
    if (violation !== undefined) return violation
  }
  return undefined
}

export const httpViolation = async (baseUrl: string, sent: HttpCase): Promise<string | undefined> =>
  violationOf(await sendHttp(baseUrl, sent), { head: sent.method === "HEAD" })

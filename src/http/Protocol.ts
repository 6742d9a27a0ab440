/**
 * The Node HTTP server under the API, hardened for public traffic. Node's parser rejects some requests
 * before any handler sees them (a bad method token, a control character in a header, conflicting or
 * malformed lengths, a bad chunk, oversized headers, a request that arrives too slowly, an `Expect`
 * it cannot meet, `CONNECT`) and by default answers those with a bare status line. Here they get what
 * every answer of this API carries: the error envelope, `X-Request-Id` and `nosniff`; the connection
 * is then closed, as the parser's state is lost.
 *
 * Timeouts suited to a public API (settings read by `AppConfig`, milliseconds): `HTTP_HEADERS_TIMEOUT_MS` (10000) to
 * receive the headers, `HTTP_REQUEST_TIMEOUT_MS` (15000) to receive the whole request,
 * `HTTP_KEEP_ALIVE_TIMEOUT_MS` (5000) an idle keep-alive connection stays open. They are checked
 * every second (Node's default is every 30 s).
 */
import { Effect, Runtime } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http"
import type { Socket } from "node:net"
import type { AppConfig } from "../../layers/AppConfig.js"
import { toErrorBody } from "../../schema/ErrorBody.js"
import {
  ExpectationFailed,
  HeadersTooLarge,
  InvalidRequest,
  MethodNotAllowed,
  PayloadTooLarge,
  RequestTimeout,
  type TradeError
} from "../../schema/Errors.js"
import { rowOf } from "../../schema/ErrorTable.js"
import { edgeHeaders, freshRequestId } from "./Edge.js"

/** `HTTP_*_TIMEOUT_MS`, read by `AppConfig`. */
export type ServerTimeouts = AppConfig["http"]

/** What each parser error means to a client; the codes are Node's (llhttp's), never request bytes. */
const malformed: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: "the method is not a valid token",
  HPE_INVALID_URL: "the request target is not a valid URL path",
  HPE_INVALID_VERSION: "the HTTP version is not supported",
  HPE_INVALID_HEADER_TOKEN: "a header name or value contains a forbidden character",
  HPE_LF_EXPECTED: "a line does not end with CRLF",
  HPE_CR_EXPECTED: "a line does not end with CRLF",
  HPE_INVALID_CONTENT_LENGTH: "Content-Length is not a single non-negative integer",
  HPE_UNEXPECTED_CONTENT_LENGTH: "Content-Length is repeated or conflicts with Transfer-Encoding",
  HPE_INVALID_TRANSFER_ENCODING: "Transfer-Encoding is not chunked, or conflicts with Content-Length",
  HPE_INVALID_CHUNK_SIZE: "a chunk size is not valid hexadecimal",
  HPE_INVALID_CONSTANT: "the request line is malformed",
  HPE_INVALID_EOF_STATE: "the connection ended in the middle of the request"
}

const errorFor = (code: string, timeouts: ServerTimeouts): TradeError | undefined => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new HeadersTooLarge({
        message: "the request headers are too large",
        hint: "send fewer or shorter headers (16 KiB in all at most)"
      })
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new PayloadTooLarge({ message: "chunk extensions are too large", hint: "send chunks without extensions" })
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new RequestTimeout({
        message: "the request did not arrive in time",
        hint: `send the headers within ${timeouts.headersMs / 1000} s and the whole request within ${
          timeouts.requestMs / 1000
        } s`
      })
  }
  if (!code.startsWith("HPE_")) return undefined // a transport error (reset, broken pipe): nobody to answer
  return new InvalidRequest({
    message: `malformed HTTP request: ${malformed[code] ?? code}`,
    details: [],
    hint: "send a well-formed HTTP/1.1 request"
  })
}

/** A complete HTTP/1.1 error answer as bytes, for a socket no response object owns. */
const rawAnswer = (error: TradeError, requestId: string, extra: Readonly<Record<string, string>> = {}): string => {
  const row = rowOf(error)
  const body = JSON.stringify(toErrorBody(error))
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...edgeHeaders(requestId),
    ...(row.retryAfterSec === undefined ? {} : { "retry-after": String(row.retryAfterSec) }),
    ...extra,
    connection: "close"
  }
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  return `HTTP/1.1 ${row.status} ${STATUS_CODES[row.status] ?? "Error"}\r\n${lines}\r\n${body}`
}

/** Writes `answer` and closes; a peer that never reads it does not hold the socket open. */
const answerAndClose = (socket: Socket, answer: string) => {
  socket.end(answer, () => socket.destroy())
  setTimeout(() => socket.destroy(), 2_000).unref()
}

/** Per connection: answers not yet finished, the latest request, and refusals waiting their turn. */
interface Pending {
  count: number
  latest: IncomingMessage | undefined
  latestAnswer: ServerResponse | undefined
  readonly waiting: Array<() => void>
}

const pendingBySocket = new WeakMap<Socket, Pending>()

const pendingOf = (socket: Socket): Pending => {
  const known = pendingBySocket.get(socket)
  if (known !== undefined) return known
  const fresh: Pending = { count: 0, latest: undefined, latestAnswer: undefined, waiting: [] }
  pendingBySocket.set(socket, fresh)
  return fresh
}

const track = (request: IncomingMessage, response: ServerResponse) => {
  const pending = pendingOf(request.socket)
  pending.count++
  pending.latest = request
  pending.latestAnswer = response
  response.once("close", () => {
    pending.count--
    if (pending.count === 0) { for (const resume of pending.waiting.splice(0)) resume() }
  })
}

/**
 * Answers a refused request without breaking the order of answers on the socket. When the refusal is
 * about the latest request, whose own answer is pending (its body never came, or came malformed), it
 * is answered now and that pending answer is dropped. When the refused bytes were pipelined after
 * complete requests whose answers are still on their way, the refusal waits for them; if one of them
 * closed the connection, nothing more is written.
 */
const answerInOrder = (socket: Socket, write: () => void) => {
  const pending = pendingOf(socket)
  const now = () => (socket.writable ? write() : socket.destroy())
  if (pending.count === 0) return now()
  if (pending.latest?.complete !== true) return pending.latestAnswer?.headersSent === true ? socket.destroy() : now()
  pending.waiting.push(now)
}

/**
 * A Node HTTP server with the timeouts above and envelope answers for every error its parser raises.
 * Diagnostics go to the Effect logger at debug level: a scanner's garbage should not flood the log.
 */
export const hardenedServer = (timeouts: ServerTimeouts) =>
  Effect.map(Effect.runtime<never>(), (runtime): Server => {
    const log = (requestId: string, what: string) =>
      Runtime.runFork(runtime)(
        Effect.logDebug(`refused at the protocol level: ${what}`).pipe(
          Effect.annotateLogs({ requestId })
        )
      )
    const server = createServer({
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
      // Checked in the edge middleware instead, so that answer carries the envelope too.
      requireHostHeader: false
    })
    server.on("request", track)
    server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
      const refusal = errorFor(error.code ?? "", timeouts)
      if (refusal === undefined) return void socket.destroy()
      answerInOrder(socket, () => {
        const requestId = freshRequestId()
        log(requestId, error.code ?? "unknown")
        answerAndClose(socket, rawAnswer(refusal, requestId))
      })
    })
    server.on("checkExpectation", (request: IncomingMessage, response) => {
      const requestId = freshRequestId()
      const refusal = new ExpectationFailed({
        message: "the Expect header cannot be met",
        hint: "send no Expect header, or `Expect: 100-continue`"
      })
      log(requestId, "Expect")
      const body = JSON.stringify(toErrorBody(refusal))
      response.writeHead(rowOf(refusal).status, {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        ...edgeHeaders(requestId),
        connection: "close"
      })
      response.end(body)
      request.socket.setTimeout(2_000, () => request.socket.destroy())
    })
    // Without a listener Node drops a CONNECT silently; this API tunnels nothing.
    server.on("connect", (_request: IncomingMessage, socket: Socket) => {
      const requestId = freshRequestId()
      log(requestId, "CONNECT")
      answerAndClose(
        socket,
        rawAnswer(
          new MethodNotAllowed({
            message: "CONNECT is not supported",
            hint: "this API is plain HTTP; use GET or POST"
          }),
          requestId,
          { allow: "GET, HEAD, POST" }
        )
      )
    })
    return server
  })

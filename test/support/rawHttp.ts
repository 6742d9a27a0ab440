/**
 * HTTP/1.1 over a bare TCP socket, for requests no HTTP client will send (broken framing, forbidden
 * characters, conflicting lengths) and for watching what the server does with the connection.
 * Also the one check every answer of the API must pass, shared by the tests and the fuzz benchmark.
 */
import { connect } from "node:net"

export interface RawAnswer {
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface Exchange {
  /** Every answer the server wrote, in order. */
  readonly answers: ReadonlyArray<RawAnswer>
  /** Whether the server closed the connection within the wait. */
  readonly closed: boolean
  /** Bytes of the server's output that did not parse as an answer. */
  readonly garbage: string
}

const decodeChunked = (text: string): string => {
  let body = ""
  let rest = text
  for (;;) {
    const line = rest.indexOf("\r\n")
    if (line < 0) return body
    const size = Number.parseInt(rest.slice(0, line), 16)
    if (!Number.isFinite(size) || size === 0) return body
    body += rest.slice(line + 2, line + 2 + size)
    rest = rest.slice(line + 2 + size + 2)
  }
}

/** Splits a server's output into answers (bodies framed by content-length or chunked encoding). */
export const parseAnswers = (output: string, head = false): Pick<Exchange, "answers" | "garbage"> => {
  const answers: Array<RawAnswer> = []
  let rest = output
  while (rest.length > 0) {
    const end = rest.indexOf("\r\n\r\n")
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(rest)
    if (end < 0 || match === null) break
    const lines = rest.slice(0, end).split("\r\n").slice(1)
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(":")
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    const after = rest.slice(end + 4)
    const length = headers["content-length"]
    if (Number(match[1]) < 200) {
      // An interim answer (100 Continue) written by Node itself: no body, and not the answer.
      rest = after
    } else if (head && answers.length === 0 && (after === "" || after.startsWith("HTTP/1."))) {
      // The answer to a HEAD has no body (a refusal of a malformed HEAD request may have one).
      answers.push({ status: Number(match[1]), headers, body: "" })
      rest = after
    } else if (length !== undefined) {
      answers.push({ status: Number(match[1]), headers, body: after.slice(0, Number(length)) })
      rest = after.slice(Number(length))
    } else if (headers["transfer-encoding"] === "chunked") {
      const body = decodeChunked(after)
      answers.push({ status: Number(match[1]), headers, body })
      const terminator = after.indexOf("\r\n0\r\n\r\n")
      rest = terminator < 0 ? "" : after.slice(terminator + 7)
    } else {
      answers.push({ status: Number(match[1]), headers, body: after })
      rest = ""
    }
  }
  return { answers, garbage: rest }
}

/**
 * Writes `request` (then half-closes, unless `keepOpen`), collects what the server answers until it
 * closes the connection or `waitMs` passes.
 */
export const exchange = (
  port: number,
  request: string | Uint8Array,
  options: { readonly waitMs?: number; readonly keepOpen?: boolean; readonly head?: boolean } = {}
): Promise<Exchange> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1")
    const chunks: Array<Buffer> = []
    let done = false
    const finish = (closed: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ ...parseAnswers(Buffer.concat(chunks).toString("latin1"), options.head), closed })
    }
    const timer = setTimeout(() => finish(false), options.waitMs ?? 5_000)
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", () => finish(true))
    socket.on("close", () => finish(true))
    socket.write(request)
    if (options.keepOpen !== true) socket.end()
  })

/**
 * What every answer must satisfy: a status under 500, an `X-Request-Id`, `nosniff`, and on an error
 * status the envelope `{ error: { code, message }, next }` in at most 4 KiB (a HEAD answer has no
 * body to check).
 * Returns the first violation, or undefined.
 */
export const violationOf = (answer: RawAnswer, options: { readonly head?: boolean } = {}): string | undefined => {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.body.slice(0, 300)}`
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(answer.headers["x-request-id"] ?? "")) return "no X-Request-Id"
  if (answer.headers["x-content-type-options"] !== "nosniff") return "no X-Content-Type-Options: nosniff"
  if (answer.status < 400 || options.head === true) return undefined
  // Error answers echo a bounded amount of the request, whatever its size.
  if (answer.body.length > 4_096) return `error body of ${answer.body.length} bytes`
  try {
    const body = JSON.parse(answer.body) as { error?: { code?: unknown; message?: unknown }; next?: unknown }
    if (typeof body.error?.code !== "string" || typeof body.error.message !== "string") return "no error envelope"
    if (typeof body.next !== "string") return "envelope without next"
    return undefined
  } catch {
    return `error body is not JSON: ${answer.body.slice(0, 200)}`
  }
}

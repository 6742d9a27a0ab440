/**
 * How `ChainRpc` tells failures apart: an answer over viem's response cap (which in a batch fails every
 * call beside it), a transient fault worth a second try, and calls whose answers grow with the chain.
 */
import { BaseError, HttpRequestError, ResponseBodyTooLargeError, TimeoutError } from "viem"

/** The most bytes an answer may take (viem's default, set explicitly in `ChainRpc`); larger ones are refused. */
export const RESPONSE_CAP_BYTES = 10 * 2 ** 20

const found = (cause: unknown, test: (inner: unknown) => boolean): boolean =>
  cause instanceof BaseError ? cause.walk(test) !== null : test(cause)

/** Whether a failure is viem refusing an answer over its size cap (anywhere in the cause chain). */
export const oversized = (cause: unknown): boolean =>
  found(cause, (inner) => inner instanceof ResponseBodyTooLargeError)

/**
 * How an oversized answer is named in a failure's hint: with its size against the cap when the node sent
 * its length, so a caller that can ask for less knows how much less (`overCap`).
 */
export const oversizedHint = (cause: unknown): string | undefined => {
  const inner = cause instanceof BaseError ? cause.walk((e) => e instanceof ResponseBodyTooLargeError) : cause
  return inner instanceof ResponseBodyTooLargeError
    ? `HTTP response body exceeded the size limit (${inner.size} bytes, at most ${inner.maxSize})`
    : undefined
}

const sizedAnswer = (hint: string | undefined) => /\((\d+) bytes, at most (\d+)\)/.exec(hint ?? "")

/** How many times over the cap an oversized answer was, from its hint; undefined when not said. */
export const overCap = (hint: string | undefined): number | undefined => {
  const sized = sizedAnswer(hint)
  return sized === null ? undefined : Number(sized[1]) / Number(sized[2])
}

/** The bytes of an oversized answer, from its hint; undefined when not said. */
export const oversizedBytes = (hint: string | undefined): number | undefined => {
  const sized = sizedAnswer(hint)
  return sized === null ? undefined : Number(sized[1])
}

/** HTTP statuses a node or proxy answers when asked again soon may succeed. */
const retriedStatuses = new Set([403, 408, 413, 429, 500, 502, 503, 504])

/** JSON-RPC codes of the same kind: unknown, limit exceeded, internal, and two providers' rate limits. */
const retriedCodes = new Set([-1, -32005, -32603, 429, -32007])

/**
 * Whether a failure is worth a second try: no answer (connection, timeout), a busy node's status, or a
 * rate limit's code. Not a node's considered refusal (a revert, bad params), and not an oversized
 * answer, which is as large the second time.
 */
export const transient = (cause: unknown): boolean =>
  !oversized(cause) && found(cause, (inner) =>
    inner instanceof TimeoutError ||
    (inner instanceof HttpRequestError && (inner.status === undefined || retriedStatuses.has(inner.status))) ||
    (typeof inner === "object" && inner !== null && "code" in inner && retriedCodes.has(inner.code as number)))

/**
 * Calls whose answer grows with the chain rather than with the question: logs, and blocks with their
 * transactions. Batched, one of them could take every call beside it over the response cap.
 */
export const large = (method: string, params: ReadonlyArray<unknown>): boolean =>
  method === "eth_getLogs" || (method.startsWith("eth_getBlockBy") && params[1] === true)

/**
 * JSON-RPC calls over a few websockets kept open to the node, for `ChainRpc.readNow`: calls on an
 * answer's critical path (the head at a request's arrival, a payment's simulation, its settlement's
 * send). A frame on an open socket costs a fraction of an HTTP request through fetch, which builds a
 * request, headers, a body stream and an abort signal for every call, and whose garbage a busy edge pays
 * for again: on a loaded machine a frame is answered in a tenth of a millisecond where fetch takes
 * milliseconds.
 *
 * Every call is still sent when it is asked for, never answered from an earlier frame, so a read sent
 * after a request arrived proves the head at that moment over either path. Each socket carries one call
 * at a time; a paid call has two on its way at once (its head read beside its simulation), so there are
 * `lanes` sockets, and a call made while every open one is busy goes over HTTP. While a socket is not
 * open, and when it closes or goes quiet with a call pending, that call is sent over HTTP instead (the
 * caller's `otherwise`); a lost socket is opened again on a later call, no sooner than its back-off.
 */
import { Effect, type Scope } from "effect"
import WebSocket from "ws"
import { RpcUnavailable } from "../../schema/Errors.js"

type Outcome = Effect.Effect<unknown, RpcUnavailable>

interface Pending {
  readonly id: number
  readonly resume: (outcome: Outcome) => void
  readonly otherwise: Outcome
  readonly timer: ReturnType<typeof setTimeout>
}

export interface SocketCalls {
  /** `method` over an idle socket, or `otherwise` (the same call over HTTP) when none can carry it. */
  readonly call: (method: string, params: ReadonlyArray<unknown>, otherwise: Outcome) => Outcome
  /** How many sockets are open now (tests and health of the sockets themselves). */
  readonly open: () => number
}

const FIRST_BACKOFF_MS = 500
const LAST_BACKOFF_MS = 10_000

/**
 * `lanes` sockets to `wsUrl`, opened now and closed with the scope. `quietMs`: how long a call waits for
 * its answer before its socket is taken for dead (a connection that died without a close frame).
 */
export const socketCalls = (
  wsUrl: string,
  quietMs: number,
  lanes: number
): Effect.Effect<SocketCalls, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const ids = { next: 1 }
      const all = Array.from({ length: lanes }, () => lane(wsUrl, quietMs, ids))
      return {
        call: (method: string, params: ReadonlyArray<unknown>, otherwise: Outcome): Outcome =>
          Effect.async<unknown, RpcUnavailable>((resume) => {
            // Every lane asked, in order: each one lost and past its back-off starts connecting. Taken in
            // the same step as sent, so no other call can take the same lane in between.
            for (const one of all) {
              const sent = one.send(method, params, resume, otherwise)
              if (sent !== undefined) return sent
            }
            resume(otherwise)
          }),
        open: () => all.filter((one) => one.open()).length,
        close: () => all.forEach((one) => one.close())
      }
    }),
    (calls) => Effect.sync(calls.close)
  )

/** One socket, opened now and again after a loss (past its back-off), carrying one call at a time. */
const lane = (wsUrl: string, quietMs: number, ids: { next: number }) => {
  let pending: Pending | undefined
  let socket: WebSocket | undefined
  let backoffMs = FIRST_BACKOFF_MS
  let retryAt = 0
  let closed = false

  const settle = (id: number, outcome: (call: Pending) => Outcome) => {
    const call = pending
    if (call?.id !== id) return
    pending = undefined
    clearTimeout(call.timer)
    call.resume(outcome(call))
  }
  /** The socket is gone: its pending call goes over HTTP, and a new one may open after the back-off. */
  const lose = (lost: WebSocket) => {
    if (socket !== lost) return
    socket = undefined
    lost.removeAllListeners()
    // An error after this (a socket still connecting) must not be an unhandled event.
    lost.on("error", () => undefined)
    lost.terminate()
    retryAt = Date.now() + backoffMs
    backoffMs = Math.min(backoffMs * 2, LAST_BACKOFF_MS)
    if (pending !== undefined) settle(pending.id, (call) => call.otherwise)
  }
  const connect = () => {
    const opened = new WebSocket(wsUrl, { perMessageDeflate: false })
    socket = opened
    opened.on("open", () => {
      backoffMs = FIRST_BACKOFF_MS
    })
    opened.on("message", (raw) => {
      let message: { readonly id?: unknown; readonly result?: unknown; readonly error?: { readonly message?: string } }
      try {
        message = JSON.parse(raw.toString())
      } catch {
        return lose(opened)
      }
      if (typeof message.id !== "number") return
      const { error, result } = message
      settle(message.id, () =>
        error === undefined
          ? Effect.succeed(result)
          : Effect.fail(
            new RpcUnavailable({ message: "chain RPC refused a call", hint: error.message ?? "no reason given" })
          ))
    })
    opened.on("error", () => lose(opened))
    opened.on("close", () => lose(opened))
  }
  connect()

  // One call at a time: a node that writes without TCP_NODELAY (anvil does) holds a second answer until
  // this end acknowledges the first, which Linux delays by up to 40 ms.
  /** Sends the call when the socket is open and idle, and returns how to forget it; undefined otherwise. */
  const send = (
    method: string,
    params: ReadonlyArray<unknown>,
    resume: (outcome: Outcome) => void,
    otherwise: Outcome
  ): Effect.Effect<void> | undefined => {
    if (closed || pending !== undefined) return undefined
    // A lost socket past its back-off starts connecting: this call goes elsewhere, a later one uses it.
    if (socket === undefined && Date.now() >= retryAt) connect()
    const open = socket
    if (open?.readyState !== WebSocket.OPEN) return undefined
    const id = ids.next++
    const timer = setTimeout(() => lose(open), quietMs)
    pending = { id, resume, otherwise, timer }
    open.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }))
    return Effect.sync(() => {
      clearTimeout(timer)
      if (pending?.id === id) pending = undefined
    })
  }

  return {
    send,
    open: () => socket?.readyState === WebSocket.OPEN,
    close: () => {
      closed = true
      if (socket !== undefined) lose(socket)
    }
  }
}

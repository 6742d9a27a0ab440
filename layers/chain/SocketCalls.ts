/**
 * JSON-RPC calls over one websocket kept open to the node, for `ChainRpc.readNow`: reads on an
 * answer's critical path (the head at a request's arrival). A frame on an open socket costs a fraction
 * of an HTTP request through fetch, which builds a request, headers, a body stream and an abort signal
 * for every call, and whose garbage a busy edge pays for again.
 *
 * Every call is still sent when it is asked for, never answered from an earlier frame, so a read sent
 * after a request arrived proves the head at that moment over either path. The socket carries one call
 * at a time (the head read is one at a time already); a call made beside it goes over HTTP. While the
 * socket is not open, and when it closes or goes quiet with calls pending, those calls are sent over
 * HTTP instead (the caller's `otherwise`); a lost socket is opened again on a later call, no sooner
 * than its back-off.
 */
import { Effect, type Scope } from "effect"
import WebSocket from "ws"
import { RpcUnavailable } from "../../schema/Errors.js"

type Outcome = Effect.Effect<unknown, RpcUnavailable>

interface Pending {
  readonly resume: (outcome: Outcome) => void
  readonly otherwise: Outcome
  readonly timer: ReturnType<typeof setTimeout>
}

export interface SocketCalls {
  /** `method` over the socket, or `otherwise` (the same call over HTTP) when the socket cannot carry it. */
  readonly call: (method: string, params: ReadonlyArray<unknown>, otherwise: Outcome) => Outcome
  /** Whether the socket is open now (tests and health of the socket itself). */
  readonly open: () => boolean
}

const FIRST_BACKOFF_MS = 500
const LAST_BACKOFF_MS = 10_000

/**
 * The socket to `wsUrl`, opened now and closed with the scope. `quietMs`: how long a call waits for
 * its answer before the socket is taken for dead (a connection that died without a close frame).
 */
export const socketCalls = (wsUrl: string, quietMs: number): Effect.Effect<SocketCalls, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.sync(() => connectLazily(wsUrl, quietMs)), (calls) => Effect.sync(calls.close))

const connectLazily = (wsUrl: string, quietMs: number) => {
  const pending = new Map<number, Pending>()
  let socket: WebSocket | undefined
  let nextId = 1
  let backoffMs = FIRST_BACKOFF_MS
  let retryAt = 0
  let closed = false

  const settle = (id: number, outcome: (call: Pending) => Outcome) => {
    const call = pending.get(id)
    if (call === undefined) return
    pending.delete(id)
    clearTimeout(call.timer)
    call.resume(outcome(call))
  }
  /** The socket is gone: its pending calls go over HTTP, and a new one may open after the back-off. */
  const lose = (lost: WebSocket) => {
    if (socket !== lost) return
    socket = undefined
    lost.removeAllListeners()
    // An error after this (a socket still connecting) must not be an unhandled event.
    lost.on("error", () => undefined)
    lost.terminate()
    retryAt = Date.now() + backoffMs
    backoffMs = Math.min(backoffMs * 2, LAST_BACKOFF_MS)
    for (const id of [...pending.keys()]) settle(id, (call) => call.otherwise)
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
  /** The open socket, or none (starting a connection when the last one's back-off has passed). */
  const ready = (): WebSocket | undefined => {
    if (closed) return undefined
    if (socket === undefined && Date.now() >= retryAt) connect()
    return socket?.readyState === WebSocket.OPEN ? socket : undefined
  }
  connect()

  const call = (method: string, params: ReadonlyArray<unknown>, otherwise: Outcome): Outcome =>
    Effect.suspend(() => {
      const open = ready()
      // One call at a time: a node that writes without TCP_NODELAY (anvil does) holds a second answer
      // until this end acknowledges the first, which Linux delays by up to 40 ms; a call made while
      // another is out goes over HTTP, where each connection carries one answer.
      if (open === undefined || pending.size > 0) return otherwise
      return Effect.async<unknown, RpcUnavailable>((resume) => {
        const id = nextId++
        const timer = setTimeout(() => lose(open), quietMs)
        pending.set(id, { resume, otherwise, timer })
        open.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }))
        return Effect.sync(() => {
          clearTimeout(timer)
          pending.delete(id)
        })
      })
    })

  return {
    call,
    open: () => socket?.readyState === WebSocket.OPEN,
    close: () => {
      closed = true
      if (socket !== undefined) lose(socket)
    }
  }
}

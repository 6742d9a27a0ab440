/**
 * New heads as the node pushes them (`eth_subscribe` `newHeads`), for `ChainRpc.heads`: a socket of the
 * stream's own, so heads arrive in the node's order and end with the stream.
 */
import { Effect, Stream } from "effect"
import WebSocket from "ws"
import { RpcUnavailable } from "../../schema/Errors.js"

/** A block header as `newHeads` announces it. */
export interface NewHead {
  readonly number: bigint
  readonly hash: `0x${string}`
  readonly parentHash: `0x${string}`
  readonly timestamp: bigint
}

/** A header as the `newHeads` subscription sends it: quantities in hex. */
interface RpcHead {
  readonly number: `0x${string}` | null
  readonly hash: `0x${string}` | null
  readonly parentHash: `0x${string}`
  readonly timestamp: `0x${string}`
}

const isRpcHead = (value: unknown): value is RpcHead =>
  typeof value === "object" && value !== null && "hash" in value && "number" in value && "parentHash" in value

/**
 * The raw `newHeads` subscription on a socket this stream owns: opened when the stream starts, closed
 * when it ends, heads emitted in the socket's order. (viem's socket is shared per URL by the whole
 * process and re-reads each announced block, handing blocks on out of order.) The stream fails when
 * the socket does; whoever follows it decides when to open another.
 */
export const newHeadsOf = (wsUrl: string): Stream.Stream<NewHead, RpcUnavailable> =>
  Stream.asyncScoped<NewHead, RpcUnavailable>((emit) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const lost = (why: string) =>
          void emit.fail(new RpcUnavailable({ message: "chain RPC failed during newHeads", hint: why }))
        const socket = new WebSocket(wsUrl)
        socket.on("open", () =>
          socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] })))
        socket.on("message", (raw) => {
          let message: {
            readonly error?: { readonly message?: string }
            readonly params?: { readonly result?: unknown }
          }
          try {
            message = JSON.parse(raw.toString())
          } catch {
            return lost("the node sent a message that is not JSON")
          }
          if (message.error !== undefined) {
            return lost(message.error.message ?? "eth_subscribe refused")
          }
          const head = message.params?.result
          if (!isRpcHead(head) || head.number === null || head.hash === null) {
            return
          }
          void emit.single({
            number: BigInt(head.number),
            hash: head.hash,
            parentHash: head.parentHash,
            timestamp: BigInt(head.timestamp)
          })
        })
        socket.on("error", (error) =>
          lost(error.message))
        socket.on("close", () => lost("the socket closed"))
        return socket
      }),
      (socket) =>
        Effect.sync(() => {
          socket.removeAllListeners()
          // An error after release (a socket still connecting) must not be an unhandled event.
          socket.on("error", () => undefined)
          socket.terminate()
        })
    )
  )

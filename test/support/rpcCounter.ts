/**
 * A pass-through JSON-RPC proxy that counts the calls going through it: put between the service and a
 * real node, it shows how many chain calls a workload costs. It forwards bytes unchanged. With `delay`,
 * a request holding a call it answers a promise for is forwarded only once that promise settles: a
 * node slow to answer one call, at the moment a test chooses; when that promise rejects, the request's
 * connection is dropped unanswered, as a node failing mid-call does; when it resolves to `answerLost`,
 * the request is forwarded and the node's answer dropped, as a connection failing on the way back does.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface RpcCounter {
  readonly url: string
  /** JSON-RPC calls forwarded so far (a batch counts each of its calls). */
  readonly calls: () => number
  readonly close: () => Promise<void>
}

/** What a `delay` promise resolves to for a call the node is to get and answer unheard. */
export const answerLost = Symbol("answerLost")

export interface RpcCall {
  readonly method: string
  readonly params: ReadonlyArray<unknown>
}

const callsIn = (parsed: unknown): Array<RpcCall> =>
  (Array.isArray(parsed) ? parsed : [parsed]).map((call: { method?: unknown; params?: unknown }) => ({
    method: String(call?.method),
    params: Array.isArray(call?.params) ? call.params : []
  }))

export const startRpcCounter = (
  target: string,
  delay: (call: RpcCall) => Promise<unknown> | undefined = () => undefined
): Promise<RpcCounter> =>
  new Promise((resolve) => {
    let calls = 0
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const body = Buffer.concat(chunks)
        let held: Array<Promise<unknown>> = []
        try {
          const parsed = callsIn(JSON.parse(body.toString("utf8")))
          calls += parsed.length
          held = parsed.flatMap((call) => delay(call) ?? [])
        } catch {
          calls += 1
        }
        let lost = false
        Promise.all(held).then((outcomes) => {
          lost = outcomes.includes(answerLost)
          return fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
        }).then(
          async (answer) => {
            if (lost) return void response.destroy()
            response.writeHead(answer.status, { "content-type": "application/json" })
            response.end(Buffer.from(await answer.arrayBuffer()))
          },
          () => response.destroy()
        )
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        calls: () => calls,
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })

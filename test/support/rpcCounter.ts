/**
 * A pass-through JSON-RPC proxy that counts the calls going through it: put between the service and a
 * real node, it shows how many chain calls a workload costs. It forwards bytes unchanged.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface RpcCounter {
  readonly url: string
  /** JSON-RPC calls forwarded so far (a batch counts each of its calls). */
  readonly calls: () => number
  readonly close: () => Promise<void>
}

export const startRpcCounter = (target: string): Promise<RpcCounter> =>
  new Promise((resolve) => {
    let calls = 0
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const body = Buffer.concat(chunks)
        try {
          const parsed: unknown = JSON.parse(body.toString("utf8"))
          calls += Array.isArray(parsed) ? parsed.length : 1
        } catch {
          calls += 1
        }
        fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body }).then(
          async (answer) => {
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

/**
 * A TCP pass-through to a real node whose connections the test can cut: `cut()` closes every
 * connection through it (a node restart or a dropped link, as a client sees it), `hold()` stops
 * carrying the client's bytes on, so a call sent now stays unanswered until the cut.
 */
import { createConnection, createServer, type Socket } from "node:net"
import type { AddressInfo } from "node:net"

export interface TcpCut {
  readonly port: number
  /** Bytes the client sent while held (a call on its way, never delivered). */
  readonly heldBytes: () => number
  readonly hold: () => void
  readonly cut: () => void
  readonly close: () => Promise<void>
}

export const startTcpCut = (targetPort: number): Promise<TcpCut> =>
  new Promise((ready) => {
    const open = new Set<Socket>()
    let held = false
    let heldBytes = 0
    const server = createServer((client) => {
      const node = createConnection({ host: "127.0.0.1", port: targetPort })
      for (const socket of [client, node]) {
        open.add(socket)
        socket.on("error", () => undefined)
        socket.on("close", () => {
          open.delete(socket)
          client.destroy()
          node.destroy()
        })
      }
      client.on("data", (chunk: Buffer) => held ? heldBytes += chunk.length : node.write(chunk))
      node.on("data", (chunk: Buffer) => client.write(chunk))
    })
    server.listen(0, "127.0.0.1", () =>
      ready({
        port: (server.address() as AddressInfo).port,
        heldBytes: () => heldBytes,
        hold: () => {
          held = true
        },
        cut: () => {
          held = false
          for (const socket of open) socket.destroy()
        },
        close: () =>
          new Promise((done) => {
            for (const socket of open) socket.destroy()
            server.close(() => done())
          })
      }))
  })

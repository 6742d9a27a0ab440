/**
 * The whole service served over HTTP on a loopback port, on a benchmark's own private devnet, with the
 * index caught up: what the end-to-end benchmarks (MCP against HTTP) call as a client would.
 */
import { Layer } from "effect"
import { Deployment } from "../../../layers/Deployment.js"
import { startTestServer } from "../../../test/support/http.js"
import { benchDevnet } from "./devnet.js"

export const servedService = async (label: string) => {
  const devnet = await benchDevnet(label)
  const server = await startTestServer(Layer.succeed(Deployment, Deployment.make(devnet.manifest)))
  /** Waits until the service's index has applied `block`. */
  const indexedPast = async (block: bigint) => {
    for (let attempt = 0; attempt < 300; attempt++) {
      const health = (await (await fetch(`${server.baseUrl}/health`)).json()) as {
        status: string
        indexedBlock?: number
      }
      if (health.status === "ok" && BigInt(health.indexedBlock ?? -1) >= block) return
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`bench: the index did not reach block ${block}`)
  }
  await indexedPast(0n)
  return {
    manifest: devnet.manifest,
    baseUrl: server.baseUrl,
    indexedPast,
    stop: async () => {
      await server.close()
      await devnet.stop()
    }
  }
}

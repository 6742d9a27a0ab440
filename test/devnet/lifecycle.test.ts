/**
 * The devnet process lifecycle: a start loads the bootstrap cache, a block interval mimics Arc's
 * cadence, and anvil never outlives its owner, whether the scope closes or the owning process is
 * SIGKILLed. How fast a cached start is belongs to `npm run bench -- devnet`, not to a test.
 */
import { Option } from "effect"
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { describe, expect, it } from "vitest"
import { clientsFor, startDevnet } from "../support/devnet.js"
import { untilAsync } from "../support/until.js"

const answers = async (rpcUrl: string) => {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000)
    })
    return response.ok
  } catch {
    return false
  }
}

const stopsAnswering = (rpcUrl: string) =>
  untilAsync(`${rpcUrl} to stop answering`, async () => !(await answers(rpcUrl)))

describe("devnet lifecycle", () => {
  it("starts from the bootstrap cache, and stops with its scope", async () => {
    const devnet = await startDevnet()
    expect(devnet.handle.source).toBe("cache")
    // the cache is loaded, not rebuilt: no bootstrap step ran
    expect(devnet.handle.timings.bootstrapMs).toBe(0)
    expect(await answers(devnet.manifest.rpcUrl)).toBe(true)
    await devnet.stop()
    expect(await stopsAnswering(devnet.manifest.rpcUrl)).toBe(true)
  })

  it("mines on an interval when a block time is set", async () => {
    const devnet = await startDevnet({ blockTime: Option.some(0.5) })
    try {
      const { public: client } = clientsFor(devnet.manifest)
      const first = await client.getBlockNumber({ cacheTime: 0 })
      // Nothing is sent: only the interval can mine these blocks.
      const later = await untilAsync("two blocks mined on the interval", async () => {
        const block = await client.getBlockNumber({ cacheTime: 0 })
        return block >= first + 2n && block
      })
      expect(later).toBeGreaterThanOrEqual(first + 2n)
    } finally {
      await devnet.stop()
    }
  })

  it("kills anvil when the owning process dies without running any handler (SIGKILL)", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/orphanFixture.ts"], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const rpcUrl = await new Promise<string>((resolve, reject) => {
        lines.once("line", resolve)
        child.once("exit", (code) => reject(new Error(`fixture exited with ${code}`)))
      })
      expect(await answers(rpcUrl)).toBe(true)
      child.kill("SIGKILL")
      expect(await stopsAnswering(rpcUrl)).toBe(true)
    } finally {
      child.kill("SIGKILL")
    }
  })
})

/**
 * The devnet process lifecycle: a cached start is fast, a block interval mimics Arc's cadence, and
 * anvil never outlives its owner, whether the scope closes or the owning process is SIGKILLed.
 */
import { Option } from "effect"
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { describe, expect, it } from "vitest"
import { clientsFor, startDevnet } from "../support/devnet.js"

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

const eventually = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

describe("devnet lifecycle", () => {
  it("starts from the bootstrap cache in well under the cold time, and stops with its scope", async () => {
    const devnet = await startDevnet()
    expect(devnet.handle.source).toBe("cache")
    expect(devnet.handle.timings.totalMs).toBeLessThan(5_000)
    expect(await answers(devnet.manifest.rpcUrl)).toBe(true)
    await devnet.stop()
    expect(await eventually(async () => !(await answers(devnet.manifest.rpcUrl)), 3_000)).toBe(true)
  })

  it("mines on an interval when a block time is set", async () => {
    const devnet = await startDevnet({ blockTime: Option.some(0.5) })
    try {
      const { public: client } = clientsFor(devnet.manifest)
      const first = await client.getBlockNumber({ cacheTime: 0 })
      await new Promise((resolve) => setTimeout(resolve, 1_600))
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(first + 2n)
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
      expect(await eventually(async () => !(await answers(rpcUrl)), 5_000)).toBe(true)
    } finally {
      child.kill("SIGKILL")
    }
  })
})

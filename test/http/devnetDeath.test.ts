/**
 * `npm start` on its embedded devnet never serves a dead chain: when its anvil dies, the service says
 * so in its log and exits non-zero. Runs the real entry point (`src/main.ts`) as a user would.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, expect, it } from "vitest"

let service: ChildProcess | undefined
afterAll(() => {
  if (service?.exitCode === null) service.kill("SIGKILL")
})

// `ps` exits 1 when it lists nothing: a process without children (the guard's reader subshell).
const childrenOf = (pid: number): Array<number> => {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n").map((line) => Number(line.trim())).filter((child) => child > 0)
  } catch (error) {
    if ((error as { status?: number }).status === 1) return []
    throw error
  }
}

it("exits non-zero, saying why, when the embedded devnet's anvil dies", async () => {
  const work = mkdtempSync(join(tmpdir(), "arc-main-"))
  const child = spawn(process.execPath, ["--import", "tsx", resolve(import.meta.dirname, "../../src/main.ts")], {
    env: {
      ...process.env,
      // Config.port refuses 0: a port unlikely to be taken.
      PORT: String(20_000 + Math.floor(Math.random() * 10_000)),
      DEVNET_PORT: "0",
      MANIFEST_PATH: join(work, "manifest.json"),
      DATA_DIR: join(work, "data"),
      DEVNET_CACHE_DIR: process.env["DEVNET_CACHE_DIR"] ?? resolve(import.meta.dirname, "../../.cache/devnet")
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  service = child
  let log = ""
  child.stdout.on("data", (chunk) => (log += chunk))
  child.stderr.on("data", (chunk) => (log += chunk))
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))

  const listening = /Listening on (http:\/\/\S+)/
  for (let waited = 0; !listening.test(log); waited += 100) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`service did not start:\n${log}`)
    await new Promise((done) => setTimeout(done, 100))
  }
  const baseUrl = listening.exec(log)![1]!
  expect((await fetch(`${baseUrl}/health`)).headers.get("x-request-id")).toBeTruthy()

  // The guard shell is the service's child; anvil is the guard's.
  const anvil = childrenOf(child.pid!).flatMap(childrenOf).find((pid) =>
    execFileSync("ps", ["-o", "comm=", "-p", String(pid)], { encoding: "utf8" }).trim() === "anvil"
  )
  expect(anvil).toBeDefined()
  const killedAt = performance.now()
  process.kill(anvil!, "SIGKILL")

  const code = await Promise.race([exited, new Promise<"timeout">((done) => setTimeout(() => done("timeout"), 15_000))])
  expect(code).not.toBe("timeout")
  expect(code).not.toBe(0)
  expect(performance.now() - killedAt).toBeLessThan(10_000)
  expect(log).toMatch(/embedded devnet's anvil .* exited \(137\)/)
})

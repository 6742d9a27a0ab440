/**
 * `npm start` on its embedded devnet never serves a dead chain: when its anvil dies, the service says
 * so in its log and exits non-zero. Runs the real entry point (`src/main.ts`) as a user would.
 */
import { type ChildProcess, execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startServiceProcess } from "../support/serviceProcess.js"

let service: ChildProcess | undefined
afterAll(() => {
  if (service?.exitCode === null) service.kill("SIGKILL")
})

// `ps` exits 1 when a process has no children (tsx's esbuild helper has none): that is an empty list.
const childrenOf = (pid: number): Array<number> =>
  spawnSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).stdout
    .split("\n").map((line) => Number(line.trim())).filter((child) => child > 0)

it("exits non-zero, saying why, when the embedded devnet's anvil dies", async () => {
  const work = mkdtempSync(join(tmpdir(), "arc-main-"))
  const { baseUrl, child, exited, log } = await startServiceProcess({
    DEVNET_PORT: "0",
    DEVNET_DIR: work,
    DATA_DIR: join(work, "data"),
    DEVNET_CACHE_DIR: process.env["DEVNET_CACHE_DIR"] ?? resolve(import.meta.dirname, "../../.cache/devnet")
  }, (child) => (service = child))
  expect((await fetch(`${baseUrl}/health`)).headers.get("x-request-id")).toBeTruthy()

  // The guard shell is the service's child; anvil is the guard's.
  const anvil = childrenOf(child.pid!).flatMap(childrenOf).find((pid) =>
    execFileSync("ps", ["-o", "comm=", "-p", String(pid)], { encoding: "utf8" }).trim() === "anvil"
  )
  expect(anvil).toBeDefined()
  process.kill(anvil!, "SIGKILL")

  // Only the service noticing can end this wait (the test's own timeout bounds a service that never does).
  const code = await exited
  expect(code).not.toBe(null)
  expect(code).not.toBe(0)
  expect(log()).toMatch(/embedded devnet's anvil .* exited \(137\)/)
})

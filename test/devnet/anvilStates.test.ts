/**
 * Anvil moves historic states to disk past a few hundred blocks and, left to itself, leaves them in
 * `~/.foundry/anvil/tmp` when it is stopped. Every devnet anvil gets a states directory of its own
 * (devnet/anvilStates.ts) that goes away with it, however the devnet stops. HOME and TMPDIR point at
 * private directories for this file, so the comparison sees only what these devnets wrote, never the
 * anvils other test runs on the machine start meanwhile.
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { anvilBinary } from "../../devnet/anvilBinary.js"
import { anvilStatesRoot } from "../../devnet/anvilStates.js"
import { startDevnet } from "../support/devnet.js"
import { untilAsync } from "../support/until.js"

// Past anvil's in-memory history (a few hundred blocks), states go to disk.
const BLOCKS_TO_DISK = "0x210"

const rpc = async (url: string, method: string, params: ReadonlyArray<unknown> = []) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  return ((await response.json()) as { result: unknown }).result
}

const list = (dir: string): Array<string> => (existsSync(dir) ? readdirSync(dir) : [])

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): Array<string> =>
  list(dir).flatMap((entry) => {
    const path = join(dir, entry)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

describe("devnet anvil states", () => {
  const saved = { HOME: process.env["HOME"], TMPDIR: process.env["TMPDIR"] }
  const sandbox = mkdtempSync(join(tmpdir(), "anvil-states-test-"))
  const home = join(sandbox, "home")
  const foundryTmp = join(home, ".foundry", "anvil", "tmp")

  beforeAll(() => {
    mkdirSync(home)
    mkdirSync(join(sandbox, "tmp"))
    process.env["HOME"] = home
    process.env["TMPDIR"] = join(sandbox, "tmp")
  })
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    rmSync(sandbox, { recursive: true, force: true })
  })

  it("without a states directory anvil leaves its states in ~/.foundry/anvil/tmp (what is fixed here)", async () => {
    const binary = Effect.runSync(anvilBinary)
    const child = spawn(binary.path, ["--port", "0"], { stdio: ["ignore", "pipe", "ignore"] })
    const url = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).on("line", (line) => {
        const match = /Listening on ([\d.]+:\d+)/.exec(line)
        if (match?.[1] !== undefined) resolve(`http://${match[1]}`)
      })
    )
    await rpc(url, "anvil_mine", [BLOCKS_TO_DISK])
    await new Promise((resolve) => {
      child.once("exit", resolve)
      child.kill("SIGTERM")
    })
    expect(filesUnder(foundryTmp).length).toBeGreaterThan(0)
    rmSync(join(home, ".foundry"), { recursive: true, force: true })
  })

  it("ten starts and stops, one of them a SIGKILLed service and one a killed anvil, leave nothing behind", async () => {
    const root = anvilStatesRoot()
    expect(root.startsWith(sandbox)).toBe(true)
    // A directory left by a process that no longer exists is swept by the next start.
    mkdirSync(join(root, "999999999-1-orphan", "anvil-state-x"), { recursive: true })

    for (let round = 0; round < 8; round += 1) {
      const devnet = await startDevnet()
      // the orphan swept, and one directory: this anvil's
      const [own, ...others] = list(root)
      expect(others).toEqual([])
      // Mining past the in-memory history costs seconds on the devnet's state: three rounds do it.
      if (round === 0 || round === 7) {
        await rpc(devnet.manifest.rpcUrl, "anvil_mine", [BLOCKS_TO_DISK])
        expect(filesUnder(join(root, own!)).length).toBeGreaterThan(0)
      }
      if (round === 7) {
        // the guard and anvil SIGKILLed together: no guard is left to remove the directory
        process.kill(-devnet.handle.anvil.pid, "SIGKILL")
        await untilAsync("the killed anvil's states removed", async () => list(root).length === 0)
      }
      await devnet.stop()
      expect(list(root)).toEqual([])
    }

    // The service SIGKILLed (no handler runs): its anvil's guard removes the states.
    for (const mine of [true, false]) {
      const child = spawn(process.execPath, ["--import", "tsx", "test/support/orphanFixture.ts"], {
        stdio: ["ignore", "pipe", "inherit"]
      })
      try {
        const url = await new Promise<string>((resolve, reject) => {
          createInterface({ input: child.stdout }).once("line", resolve)
          child.once("exit", (code) => reject(new Error(`fixture exited with ${code}`)))
        })
        if (mine) {
          await rpc(url, "anvil_mine", [BLOCKS_TO_DISK])
          expect(filesUnder(root).length).toBeGreaterThan(0)
        }
        child.kill("SIGKILL")
        await untilAsync("the SIGKILLed service's anvil states removed", async () => list(root).length === 0)
      } finally {
        child.kill("SIGKILL")
      }
    }
    expect(list(root)).toEqual([])
    expect(existsSync(join(home, ".foundry"))).toBe(false)
  }, 240_000)
})

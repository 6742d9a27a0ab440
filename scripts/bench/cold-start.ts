/**
 * Cold start (issue 36): `npm start` on a fresh clone (no `.cache/`, no `.devnet/`, a fresh `TMPDIR`,
 * `node_modules` linked from this checkout) to the first 200 on `/health`, for this checkout's HEAD and,
 * alternated with it in the same run, `COLD_START_BASE` (a commit or branch; none by default).
 * `COLD_START_RUNS` (3) starts of each; the median per build and the load average are printed.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { figure } from "./lib/report.js"

const RUNS = Number(process.env["COLD_START_RUNS"] ?? 3)
const BASE = process.env["COLD_START_BASE"]
const repo = resolve(import.meta.dirname, "../..")
const work = mkdtempSync(join(tmpdir(), "bench-cold-start-"))

const alive = (group: number) => {
  try {
    process.kill(-group, 0)
    return true
  } catch {
    return false
  }
}

/** Stops the start's process group (npm, the service) and waits until it is gone, its devnet with it. */
const stopGroup = async (child: ChildProcess) => {
  const group = child.pid!
  process.kill(-group, "SIGTERM")
  for (let waited = 0; alive(group); waited += 100) {
    if (waited === 15_000) process.kill(-group, "SIGKILL")
    await new Promise((done) => setTimeout(done, 100))
  }
}

/** Seconds from `npm start` to the first 200 on `/health`, in a fresh clone of `ref`. */
const coldStart = async (ref: string, label: string, port: number): Promise<number> => {
  const dir = join(work, label)
  execFileSync("git", ["clone", "-q", "--no-hardlinks", repo, dir])
  execFileSync("git", ["-C", dir, "checkout", "-q", ref])
  symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"))
  const temp = join(dir, ".tmp")
  mkdirSync(temp)
  const started = performance.now()
  // Its own process group, so the devnet's anvil stops with it.
  const child = spawn("npm", ["start"], {
    cwd: dir,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(port),
      DEVNET_PORT: String(port + 1),
      DEVNET_DIR: join(dir, ".devnet"),
      TMPDIR: temp
    }
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label}: npm start exited (${child.exitCode})`)
      const status = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status, () => 0)
      if (status === 200) return (performance.now() - started) / 1000
      if (performance.now() - started > 300_000) throw new Error(`${label}: no 200 within 300 s`)
      await new Promise((done) => setTimeout(done, 50))
    }
  } finally {
    await stopGroup(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

try {
  const builds = [["HEAD", "HEAD"], ...(BASE === undefined ? [] : [[BASE, "base"]])] as const
  const times = new Map<string, Array<number>>(builds.map(([, label]) => [label, []]))
  // Each start gets ports of its own: a stopped devnet's port may not be free again at once.
  let port = 27_000 + Math.floor(Math.random() * 1_000) * 2
  for (let run = 1; run <= RUNS; run++) {
    for (const [ref, label] of builds) {
      const seconds = await coldStart(ref, `${label}-${run}`, port += 2)
      times.get(label)!.push(seconds)
      figure(`${label} (${ref}) run ${run}`, `${seconds.toFixed(2)} s (load ${loadavg()[0]!.toFixed(2)})`)
    }
  }
  for (const [ref, label] of builds) {
    figure(`${label} (${ref}) median of ${RUNS}`, `${median(times.get(label)!).toFixed(2)} s`)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}

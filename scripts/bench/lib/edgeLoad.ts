/**
 * The servers `npm run bench -- edge` compares, as child processes, and autocannon's load on them. The
 * load generator runs in the benchmark's own process, on the same cores as the servers: what counts
 * is the ratio between servers measured in the same run, not the absolute figures.
 */
import autocannon from "autocannon"
import { type ChildProcess, execFileSync, fork, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { extname, join, resolve } from "node:path"

/** One request the servers are measured on, and the status every one of them must answer it with. */
export interface Probe {
  readonly label: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly body?: string
  readonly status: number
}

export const probes: ReadonlyArray<Probe> = [
  { label: "GET /health", method: "GET", path: "/health", status: 200 },
  {
    label: "unpaid search (402)",
    method: "POST",
    path: "/trade/v1/search",
    body: JSON.stringify({ query: "WETH", limit: 10 }),
    status: 402
  },
  {
    label: "bad receipt body (400)",
    method: "POST",
    path: "/trade/v1/receipt",
    body: JSON.stringify({ quoteId: "nope", txHashes: [] }),
    status: 400
  }
]

export interface Served {
  readonly name: string
  readonly baseUrl: string
  readonly child: ChildProcess
}

/**
 * Starts `script` under tsx as its own Node process; with `profileDir` it writes a CPU profile there
 * when it exits (`stop` below lets it exit cleanly).
 */
export const serve = (
  name: string,
  script: string,
  args: ReadonlyArray<string>,
  port: number,
  env: Readonly<Record<string, string>>,
  profileDir: string | undefined
): Served => {
  // One profile per thread (tsx's loader has its own); the main thread's is the largest in the folder.
  const profile = profileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", join(profileDir, name)]
  const child = spawn(process.execPath, [...profile, "--import", "tsx", script, ...args], {
    env: { ...process.env, ...env },
    stdio: "ignore"
  })
  // A bench that dies (an uncaught exception skips its `finally`) takes its servers with it: a service
  // left behind keeps its scan running against a dead node and loads every run after it.
  const orphaned = () => child.kill("SIGTERM")
  process.once("exit", orphaned)
  child.once("exit", () => process.off("exit", orphaned))
  return { name, baseUrl: `http://127.0.0.1:${port}`, child }
}

// Compiled (`tsc --outDir dist`, for profiles with the source's names and lines) or not.
export const baselineScript = resolve(import.meta.dirname, `edgeBaselines${extname(import.meta.filename)}`)

/** Stops a server and waits for it to exit (so a CPU profile is written). */
export const stop = (served: Served): Promise<void> =>
  new Promise((done) => {
    if (served.child.exitCode !== null || served.child.signalCode !== null) return done()
    served.child.once("exit", () => done())
    served.child.kill("SIGTERM")
  })

/** Waits until `ready` says the server at `baseUrl` is up. */
export const waitFor = async (served: Served, ready: (response: Response) => Promise<boolean>) => {
  for (let waited = 0; waited < 60_000; waited += 100) {
    const up = await fetch(`${served.baseUrl}/health`).then(ready, () => false)
    if (up) return
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error(`${served.name} did not come up within 60 s`)
}

/** Fails unless the server answers `probe` with the status every server must give. */
export const check = async (served: Served, probe: Probe) => {
  const answer = await fetch(`${served.baseUrl}${probe.path}`, {
    method: probe.method,
    ...(probe.body === undefined ? {} : { body: probe.body, headers: { "content-type": "application/json" } })
  })
  await answer.arrayBuffer()
  if (answer.status !== probe.status) {
    throw new Error(`${served.name} answered ${probe.label} with ${answer.status}, not ${probe.status}`)
  }
}

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }))
/** CPU seconds (user + system) a process has used, from `/proc` (Linux). */
export const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
}

export interface Measured {
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly answers: number
  /** Answers with another status than the probe's. */
  readonly wrong: number
  readonly cpuMsPerAnswer: number
}

export const measure = async (
  served: Served,
  probe: Probe,
  connections: number,
  seconds: number
): Promise<Measured> => {
  const cpuBefore = cpuSeconds(served.child.pid!)
  const result = await autocannon({
    url: `${served.baseUrl}${probe.path}`,
    method: probe.method,
    connections,
    duration: seconds,
    ...(probe.body === undefined ? {} : { body: probe.body, headers: { "content-type": "application/json" } })
  })
  const answers = result.requests.total
  const expected = result.statusCodeStats?.[`${probe.status}`]?.count ?? 0
  return {
    perSecond: answers / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    answers,
    wrong: answers - expected + result.errors,
    cpuMsPerAnswer: (cpuSeconds(served.child.pid!) - cpuBefore) * 1_000 / Math.max(1, answers)
  }
}

export interface CountingProxy {
  readonly url: string
  /** JSON-RPC calls forwarded so far. */
  readonly calls: () => Promise<number>
  readonly close: () => Promise<void>
}

/** A counting JSON-RPC proxy to `target` in its own process (./rpcCounterProcess.ts). */
export const countingProxy = (target: string): Promise<CountingProxy> =>
  new Promise((ready) => {
    const child = fork(resolve(import.meta.dirname, `rpcCounterProcess${extname(import.meta.filename)}`), [target], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "ignore", "inherit", "ipc"]
    })
    child.once("message", (message) =>
      ready({
        url: (message as { url: string }).url,
        calls: () =>
          new Promise((answer) => {
            child.once("message", (count) => answer((count as { calls: number }).calls))
            child.send("calls")
          }),
        close: () =>
          new Promise((done) => {
            child.once("exit", () => done())
            child.disconnect()
          })
      }))
  })

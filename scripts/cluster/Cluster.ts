/**
 * N replicas of the service behind HAProxy, sharing one Redis and one chain: what `npm run cluster`
 * runs, and what the cluster tests and `npm run bench -- cluster` start. Each replica is a real
 * `src/main.ts` process with `RPC_URL` (it follows the chain itself), `REDIS_URL` and a key prefix of
 * the cluster's own; the balancer (./Balancer.ts) sends requests round-robin to the healthy ones. Its
 * statistics (requests per replica, as CSV) are at `statsUrl`.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { serviceNodeOptions } from "../serviceNodeOptions.js"
import { balancerConfig, haproxyMissing } from "./Balancer.js"

export { haproxyMissing }

export interface ClusterOptions {
  readonly replicas: number
  readonly rpcUrl: string
  readonly manifestPath: string
  readonly redisUrl: string
  /** Keys of this cluster start with it (Redis is shared with others: never flushed). */
  readonly redisPrefix: string
  /** Settings every replica gets (payment recipient, timings…). */
  readonly settings: Readonly<Record<string, string>>
  /**
   * Replica i's in-process settlement key. Each replica needs its own: a key's transactions are
   * serialised (their nonces) within one process only, so two replicas settling with one key race.
   */
  readonly settlementKeys: ReadonlyArray<string>
  /** The balancer's port; by default a free one. */
  readonly port?: number
}

export interface Replica {
  readonly name: string
  readonly url: string
  readonly settlementKey: string
  /** The running process (undefined while stopped). */
  process: ChildProcess | undefined
}

export interface Cluster {
  readonly baseUrl: string
  readonly statsUrl: string
  readonly replicas: ReadonlyArray<Replica>
  /** Starts a stopped replica again on its port, resolving once its health answers 200. */
  readonly start: (replica: Replica) => Promise<void>
  /** Sends `signal` and resolves when the process has exited. */
  readonly stop: (replica: Replica, signal?: NodeJS.Signals) => Promise<number | null>
  /** Requests each replica answered so far, by name, as the balancer counts them. */
  readonly served: () => Promise<Record<string, number>>
  readonly close: () => Promise<void>
}

const ROOT = resolve(import.meta.dirname, "../..")

export const freePort = () =>
  new Promise<number>((resolvePort, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => typeof address === "object" && address !== null ? resolvePort(address.port) : reject())
    })
  })

const exited = (child: ChildProcess) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode)
    child.once("exit", (code) => done(code))
  })

/** Polls `url` until it answers 200, a bounded number of times; fails with the process's output. */
const healthy = async (url: string, child: ChildProcess, output: () => string) => {
  for (let attempt = 0; attempt < 1_200; attempt++) {
    if (child.exitCode !== null) throw new Error(`replica exited (${child.exitCode}):\n${output()}`)
    const ok = await fetch(`${url}/health`).then((r) => r.status === 200, () => false)
    if (ok) return
    await new Promise((wake) => setTimeout(wake, 100))
  }
  throw new Error(`replica at ${url} never became healthy:\n${output()}`)
}

/** Settlement keys for replicas on the devnet: its funded accounts from the last, away from the demo's payer (0). */
export const devnetSettlementKeys = (manifest: { readonly accounts: ReadonlyArray<{ readonly privateKey: string }> }) =>
  manifest.accounts.slice(1).reverse().map((account) => account.privateKey)

export const startCluster = async (options: ClusterOptions): Promise<Cluster> => {
  const missing = haproxyMissing()
  if (missing !== undefined) throw new Error(missing)
  const dir = mkdtempSync(join(tmpdir(), "checkpoint-cluster-"))
  const port = options.port ?? await freePort()
  const statsPort = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const replicas: Array<Replica> = []
  if (options.settlementKeys.length < options.replicas) throw new Error("one settlement key per replica is needed")
  for (let i = 0; i < options.replicas; i++) {
    replicas.push({
      name: `replica-${i + 1}`,
      url: `http://127.0.0.1:${await freePort()}`,
      settlementKey: options.settlementKeys[i]!,
      process: undefined
    })
  }

  const start = async (replica: Replica) => {
    const dataDir = join(dir, replica.name)
    mkdirSync(dataDir, { recursive: true })
    let log = ""
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...options.settings,
        HOST: "127.0.0.1",
        PORT: new URL(replica.url).port,
        PUBLIC_URL: baseUrl,
        RPC_URL: options.rpcUrl,
        MANIFEST_PATH: options.manifestPath,
        DATA_DIR: dataDir,
        REDIS_URL: options.redisUrl,
        REDIS_PREFIX: options.redisPrefix,
        SETTLEMENT_PRIVATE_KEY: replica.settlementKey,
        // As `npm start` runs the service: its default node options, then the operator's.
        NODE_OPTIONS: serviceNodeOptions(process.env["NODE_OPTIONS"])
      }
    })
    // The last output only, for the error of a replica that did not come up.
    const keep = (chunk: Buffer) => void (log = (log + chunk.toString()).slice(-8_000))
    child.stdout?.on("data", keep)
    child.stderr?.on("data", keep)
    replica.process = child
    await healthy(replica.url, child, () => log)
  }

  const stop = async (replica: Replica, signal: NodeJS.Signals = "SIGTERM") => {
    const child = replica.process
    if (child === undefined) return null
    child.kill(signal)
    const code = await exited(child)
    replica.process = undefined
    return code
  }

  const balancer = { process: undefined as ChildProcess | undefined }
  const close = async () => {
    await Promise.all(replicas.map((replica) => stop(replica, "SIGKILL")))
    if (balancer.process !== undefined) {
      balancer.process.kill("SIGKILL")
      await exited(balancer.process)
    }
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    await Promise.all(replicas.map(start))
    const config = join(dir, "haproxy.cfg")
    writeFileSync(config, balancerConfig(port, statsPort, replicas))
    balancer.process = spawn("haproxy", ["-db", "-f", config], { stdio: "ignore" })
    // Up once every replica passed the balancer's own health check (rise 2).
    for (let attempt = 0;; attempt++) {
      const up = await fetch(`${baseUrl}/health`).then((r) => r.headers.get("x-replica"), () => null)
      const stats = up === null ? "" : await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).then((r) => r.text())
      const upCount = stats.split("\n").filter((line) => line.startsWith("replicas,replica-") && line.includes(",UP,"))
      if (upCount.length === replicas.length) break
      if (attempt > 600) throw new Error(`the balancer at ${baseUrl} never saw every replica up`)
      await new Promise((wake) => setTimeout(wake, 100))
    }
  } catch (error) {
    await close()
    throw error
  }

  const served = async () => {
    const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).then((r) => r.text())
    const [header, ...rows] = csv.replace(/^# /, "").split("\n")
    const column = header!.split(",").indexOf("stot")
    const counts: Record<string, number> = {}
    for (const row of rows) {
      const cells = row.split(",")
      if (cells[0] === "replicas" && cells[1]!.startsWith("replica-")) counts[cells[1]!] = Number(cells[column])
    }
    return counts
  }

  return { baseUrl, statsUrl: `http://127.0.0.1:${statsPort}/stats`, replicas, start, stop, served, close }
}
